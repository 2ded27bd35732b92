import { LISTAR_PRODUCTOS_PATH, LISTAR_PRODUCTOS_RESPONSE } from '@pago/domain/call-listar';
import type { ListarProductosRequest } from '@pago/domain/schemas/call-listar';
import { CANAL } from '@pago/domain/channel';
import type { DetalleError } from '@pago/domain/errors';
import type { Producto } from '@pago/domain/products';
import { ApiError } from '../../../lib/api-client';
import { loadAnswerSchemas } from '../../../lib/answer-schemas';
import { startCaptcha } from '../../../lib/captcha';
import { postEnvelope } from '../../../lib/post-envelope';

/** What the product list answered: a session and the member's products, or a business error. */
export type ListarAnswer =
  | { kind: 'products'; token: string; products: Producto[] }
  | { kind: 'error'; error: DetalleError };

/**
 * Call 2 (specification §7.2) with a solved captcha in the Authorization header. Throws ApiError when there is no
 * business answer (network, non-2xx, unreadable body).
 */
export async function listarProductos(rut: string, captcha: string): Promise<ListarAnswer> {
  // Downloaded while the captcha is solved and the call is under way, not before step 1 can paint.
  const schemas = loadAnswerSchemas();
  schemas.catch(() => {});
  const request: ListarProductosRequest = {
    listarDetalleProductosRequest: { userId: rut, canalLlamada: CANAL, rut },
  };
  const answer = await postEnvelope(LISTAR_PRODUCTOS_PATH, request, LISTAR_PRODUCTOS_RESPONSE, {
    headers: { Authorization: captcha },
  });
  if (answer.kind === 'error') return answer;
  const parsed = (await schemas).listarProductosOkSchema.safeParse(answer.response);
  // A 2xx answer that is neither a product list nor an error is a server fault, like a 5xx.
  if (!parsed.success) throw new ApiError('parse', LISTAR_PRODUCTOS_PATH, 200);
  return { kind: 'products', token: parsed.data.token, products: parsed.data.listaProductos };
}

// One listing per RUT at a time: React's StrictMode runs an effect twice, and a second captcha and session for
// the same member would only cost the server (and the member's rate limit) for nothing.
const inFlight = new Map<string, Promise<ListarAnswer>>();

/** Solves a fresh captcha and lists the member's products; a call already under way for `rut` is shared. */
export function loadProducts(rut: string): Promise<ListarAnswer> {
  const pending = inFlight.get(rut);
  if (pending) return pending;
  loadAnswerSchemas().catch(() => {});
  const call = startCaptcha()
    .then((captcha) => listarProductos(rut, captcha))
    .finally(() => inFlight.delete(rut));
  inFlight.set(rut, call);
  return call;
}
