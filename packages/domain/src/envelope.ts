import { z } from 'zod';
import { asArray } from './as-array';
import type { ErrorResponse } from './schemas/answers';
import { errorDetail, type DetalleError, type ErrorCode, type RefusalCode } from './errors';

// The envelope's schemas are answers' (schemas/answers.ts); offered here too, where the envelope is built and read.
export { detalleErrorSchema, errorFieldSchema, errorResponseSchema, type ErrorResponse } from './schemas/answers';
export type { DetalleError };

/**
 * A refusal in the envelope: a catalogue code takes the catalogue's description; any other code of a refusal (the
 * authoriser's own) must bring its own. A code that is neither does not compile.
 */
export function errorEnvelope<N extends string>(responseName: N, codigo: ErrorCode, descripcion?: string): { [K in N]: ErrorResponse };
export function errorEnvelope<N extends string>(responseName: N, codigo: RefusalCode, descripcion: string): { [K in N]: ErrorResponse };
export function errorEnvelope<N extends string>(
  responseName: N,
  codigo: RefusalCode,
  descripcion?: string,
): { [K in N]: ErrorResponse } {
  const detalleError = descripcion === undefined ? errorDetail(codigo) : { codigo, descripcion };
  return { [responseName]: { error: { errores: { detalleError } } } } as { [K in N]: ErrorResponse };
}

// Lenient on purpose: answering "no error" for an error it cannot parse would let a failure pass as a success.
const looseDetalleSchema = z.object({
  codigo: z.union([z.string(), z.number()]).optional(),
  descripcion: z.string().optional(),
});

/**
 * The error inside `responseBody[responseName]`, or null when there is no `error` field. An `error` field that
 * cannot be read gives codigo '' (no catalogue code), so callers fall back to their generic handling.
 */
export function readError(responseBody: unknown, responseName: string): DetalleError | null {
  const response = field(responseBody, responseName);
  const error = field(response, 'error');
  if (error === undefined || error === null) return null;
  const detalle = asArray(field(field(error, 'errores'), 'detalleError'))[0];
  const parsed = looseDetalleSchema.safeParse(detalle);
  if (!parsed.success) return { codigo: '', descripcion: '' };
  return { codigo: String(parsed.data.codigo ?? ''), descripcion: parsed.data.descripcion ?? '' };
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
