import { oneChangeSchema } from '@pago/domain/schemas/admin';
import { answerSchema, errorAnswerSchema } from '@pago/domain/schemas/answers';
import { z } from 'zod';

/**
 * A call's response schemas: its answer or a business refusal with 200, the envelope's error with a 4xx or a 5xx
 * (error-handler.ts). Fastify serialises each answer with them, and /docs documents them.
 */
export function envelopeResponses<N extends string, T extends z.core.SomeType>(responseName: N, ok: T) {
  const error = errorAnswerSchema(responseName);
  return { 200: answerSchema(responseName, ok), '4xx': error, '5xx': error };
}

/** The error envelope alone, for a route whose success is not JSON (a PDF, a redirect). */
export function errorResponses<N extends string>(responseName: N) {
  const error = errorAnswerSchema(responseName);
  return { '4xx': error, '5xx': error };
}

/** A body that is a document of its own (HTML, CSS, JavaScript, a PDF), documented by its media type. */
export const documentOf = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.custom<string | Uint8Array>((body) => typeof body === 'string' || body instanceof Uint8Array) } },
});

/** A redirect: no body, a Location header. */
export const redirect = (description: string) => z.literal('').meta({ description });

/** A change proposed to a second person (four eyes): 202 with the change, applied once another operator approves it. */
export const proposedResponse = <N extends string>(responseName: N, description: string) => ({
  202: z.object({ [responseName]: oneChangeSchema } as { [K in N]: typeof oneChangeSchema }).describe(description),
});
