import type { DetalleError } from '@pago/domain/errors';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/*
 * Structural reads of the envelope (DESIGN §3) without zod, so that the home screen's chunk stays small.
 * They follow @pago/domain/envelope's readError, which later screens may use directly.
 */

/** The object keyed by `responseName` in a response body, or null when the body does not have it. */
export function readResponse(body: unknown, responseName: string): Json | null {
  if (!isObject(body)) return null;
  const response = body[responseName];
  return isObject(response) ? response : null;
}

/**
 * The error inside a response, or null when it has no `error` field. An `error` field that cannot be read gives
 * codigo '' (outside the catalogue), so the caller falls back to its generic handling instead of reading the
 * answer as a success.
 */
export function readEnvelopeError(response: Json): DetalleError | null {
  const error = response['error'];
  if (error === undefined || error === null) return null;
  const errores = isObject(error) ? error['errores'] : undefined;
  const detalleField = isObject(errores) ? errores['detalleError'] : undefined;
  const detalle: unknown = Array.isArray(detalleField) ? detalleField[0] : detalleField;
  if (!isObject(detalle)) return { codigo: '', descripcion: '' };
  const { codigo, descripcion } = detalle;
  return {
    codigo: typeof codigo === 'string' || typeof codigo === 'number' ? String(codigo) : '',
    descripcion: typeof descripcion === 'string' ? descripcion : '',
  };
}
