import { consultarPagoOkSchema } from '@pago/domain/schemas/answers';
import { CONSULTAR_PAGO_PATH, CONSULTAR_PAGO_REQUEST, CONSULTAR_PAGO_RESPONSE } from '@pago/domain/call-consultar-pago';
import type { ConsultarPagoRequest } from '@pago/domain/schemas/call-consultar-pago';
import { CANAL } from '@pago/domain/channel';
import type { DetalleError } from '@pago/domain/errors';
import { ApiError } from '../../../lib/api-client';
import { postEnvelope } from '../../../lib/post-envelope';

/** Call 7 as the card path uses it: only whether the voucher exists yet; the voucher screen reads its contents. */
export type PaymentCheck = { kind: 'paid' } | { kind: 'error'; error: DetalleError };

/** Throws ApiError without a business answer. */
export async function checkPayment(rut: string, token: string, idTransaccion: string): Promise<PaymentCheck> {
  const request: ConsultarPagoRequest = { [CONSULTAR_PAGO_REQUEST]: { userId: rut, canalLlamada: CANAL, idTransaccion, token } };
  const answer = await postEnvelope(CONSULTAR_PAGO_PATH, request, CONSULTAR_PAGO_RESPONSE);
  if (answer.kind === 'error') return answer;
  if (!consultarPagoOkSchema.safeParse(answer.response).success) throw new ApiError('parse', CONSULTAR_PAGO_PATH, 200);
  return { kind: 'paid' };
}
