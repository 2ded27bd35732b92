import type { DetalleError } from '@pago/domain/errors';
import { ApiError, isApiError, postJson, type PostOptions } from './api-client';
import { readEnvelopeError, readResponse } from './envelope';

/** A call's answer: its response object, or the business error inside it (DESIGN §3). */
export type EnvelopeAnswer =
  | { kind: 'response'; response: Record<string, unknown> }
  | { kind: 'error'; error: DetalleError };

// The rate limiter answers HTTP 429 with the call's envelope and code 514: a business answer ('too many
// requests, wait a moment'), not a failure of the service.
const TOO_MANY_REQUESTS = 429;

/**
 * POSTs a call and reads its envelope. Throws ApiError when there is no business answer: a network failure, a
 * non-2xx status (but 429 with its envelope), a body that is not JSON or not keyed by `responseName`.
 */
export async function postEnvelope(
  path: string,
  body: unknown,
  responseName: string,
  options: PostOptions = {},
): Promise<EnvelopeAnswer> {
  return readEnvelopeAnswer(postJson(path, body, options), path, responseName);
}

/** postEnvelope's reading, of a call already sent with postJson (the voucher sends call 7 ahead of its screen). */
export async function readEnvelopeAnswer(sent: Promise<unknown>, path: string, responseName: string): Promise<EnvelopeAnswer> {
  let answer: unknown;
  try {
    answer = await sent;
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === TOO_MANY_REQUESTS) {
      const response = readResponse(error.body, responseName);
      const detail = response ? readEnvelopeError(response) : null;
      if (detail?.codigo) return { kind: 'error', error: detail };
    }
    throw error;
  }
  const response = readResponse(answer, responseName);
  if (!response) throw new ApiError('parse', path, 200);
  const error = readEnvelopeError(response);
  return error ? { kind: 'error', error } : { kind: 'response', response };
}
