import { CONSULTAR_PAGO_PATH, CONSULTAR_PAGO_RESPONSE } from '@pago/domain/call-consultar-pago';
import { consultarPagoOkSchema, type Pago } from '@pago/domain/schemas/answers';
import { asArray } from '@pago/domain/as-array';
import type { ConsultarPagoRequest } from '@pago/domain/schemas/call-consultar-pago';
import type { DetalleError } from '@pago/domain/errors';
import { ApiError, postJson } from '../../../lib/api-client';
import { readEnvelopeAnswer } from '../../../lib/post-envelope';
import { takeStartedVoucherCall } from './consultar-pago-start';

export { consultarPagoRequest } from './consultar-pago-start';

export type ConsultarPagoAnswer = { kind: 'voucher'; pagos: Pago[]; verificationCode: string | null } | { kind: 'error'; error: DetalleError };

/**
 * Call 7 (specification §7.7): the voucher of a paid transaction, from the request sent ahead by the route table
 * when there is one. Throws ApiError without a business answer.
 */
export async function consultarPago(request: ConsultarPagoRequest): Promise<ConsultarPagoAnswer> {
  const sent = takeStartedVoucherCall(request) ?? postJson(CONSULTAR_PAGO_PATH, request);
  const answer = await readEnvelopeAnswer(sent, CONSULTAR_PAGO_PATH, CONSULTAR_PAGO_RESPONSE);
  if (answer.kind === 'error') return answer;
  const parsed = consultarPagoOkSchema.safeParse(answer.response);
  if (!parsed.success) throw new ApiError('parse', CONSULTAR_PAGO_PATH, 200);
  return { kind: 'voucher', pagos: asArray(parsed.data.listaPago.pago), verificationCode: parsed.data.codigoVerificacion ?? null };
}
