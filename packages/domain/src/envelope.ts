import { asArray } from './as-array';
import type { ErrorResponse } from './schemas/answers';
import { errorDetail, type DetalleError, type ErrorCode, type RefusalCode } from './errors';

// The envelope's schemas are answers' (schemas/answers.ts); its types are offered here, where it is built and read.
export type { DetalleError, ErrorResponse };

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


/**
 * The error inside `responseBody[responseName]`, or null when there is no `error` field. An `error` field that
 * cannot be read gives codigo '' (no catalogue code), so callers fall back to their generic handling.
 */
export function readError(responseBody: unknown, responseName: string): DetalleError | null {
  const response = field(responseBody, responseName);
  const error = field(response, 'error');
  if (error === undefined || error === null) return null;
  // Lenient on purpose: answering "no error" for an error it cannot parse would let a failure pass as a success.
  const detalle = asArray(field(field(error, 'errores'), 'detalleError'))[0];
  const codigo = field(detalle, 'codigo');
  const descripcion = field(detalle, 'descripcion');
  const readable =
    isObject(detalle) &&
    (codigo === undefined || typeof codigo === 'string' || typeof codigo === 'number') &&
    (descripcion === undefined || typeof descripcion === 'string');
  return readable ? { codigo: String(codigo ?? ''), descripcion: descripcion ?? '' } : { codigo: '', descripcion: '' };
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);

function field(value: unknown, key: string): unknown {
  if (!isObject(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
