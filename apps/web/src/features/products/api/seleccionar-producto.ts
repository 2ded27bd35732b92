import { seleccionarProductoOkSchema } from '@pago/domain/schemas/answers';
import { SELECCIONAR_PRODUCTO_PATH, SELECCIONAR_PRODUCTO_RESPONSE } from '@pago/domain/call-seleccionar';
import type { SeleccionarProductoRequest } from '@pago/domain/schemas/call-seleccionar';
import type { DetalleError } from '@pago/domain/errors';
import { ApiError } from '../../../lib/api-client';
import { postEnvelope } from '../../../lib/post-envelope';

/** What the selection answered: the pending transaction and the total the server computed, or a business error. */
export type SeleccionarAnswer =
  | { kind: 'transaction'; idTransaccion: string; montoTotal: number }
  | { kind: 'error'; error: DetalleError };

/** Call 3 (specification §7.3). Throws ApiError when there is no business answer. */
export async function seleccionarProducto(request: SeleccionarProductoRequest): Promise<SeleccionarAnswer> {
  const answer = await postEnvelope(SELECCIONAR_PRODUCTO_PATH, request, SELECCIONAR_PRODUCTO_RESPONSE);
  if (answer.kind === 'error') return answer;
  const parsed = seleccionarProductoOkSchema.safeParse(answer.response);
  if (!parsed.success) throw new ApiError('parse', SELECCIONAR_PRODUCTO_PATH, 200);
  return { kind: 'transaction', idTransaccion: parsed.data.idTransaccion, montoTotal: parsed.data.montoTotal };
}
