import { asArray } from '@pago/domain/as-array';
import { CONSULTAR_PAGO_PATH, CONSULTAR_PAGO_REQUEST, CONSULTAR_PAGO_RESPONSE } from '@pago/domain/call-consultar-pago-plain';
import type { ConsultarPagoRequest, Pago } from '@pago/domain/call-consultar-pago';
import { CANAL } from '@pago/domain/channel';
import type { DetalleError } from '@pago/domain/errors-plain';
import { ApiError } from '../../../lib/api-client';
import { postEnvelope } from '../../../lib/post-envelope';

export function consultarPagoRequest(rut: string, token: string, idTransaccion: string): ConsultarPagoRequest {
  return { [CONSULTAR_PAGO_REQUEST]: { userId: rut, canalLlamada: CANAL, idTransaccion, token } };
}

export type ConsultarPagoAnswer = { kind: 'voucher'; pagos: Pago[] } | { kind: 'error'; error: DetalleError };

/** Call 7 (specification §7.7): the voucher of a paid transaction. Throws ApiError without a business answer. */
export async function consultarPago(request: ConsultarPagoRequest): Promise<ConsultarPagoAnswer> {
  // The answer's schema brings zod (~26 KB): it is downloaded while the call is under way, not before the voucher
  // can make it.
  const schema = import('./lista-pago-schema');
  schema.catch(() => {});
  const answer = await postEnvelope(CONSULTAR_PAGO_PATH, request, CONSULTAR_PAGO_RESPONSE);
  if (answer.kind === 'error') return answer;
  const parsed = (await schema).listaPagoSchema.safeParse(answer.response);
  if (!parsed.success) throw new ApiError('parse', CONSULTAR_PAGO_PATH, 200);
  return { kind: 'voucher', pagos: asArray(parsed.data.listaPago.pago) };
}
