import { enviarComprobanteOkSchema } from '@pago/domain/schemas/answers';
import type { EnviarComprobanteRequest } from '@pago/domain/schemas/call-notificaciones';
import {
  ENVIAR_COMPROBANTE_PATH,
  ENVIAR_COMPROBANTE_REQUEST,
  ENVIAR_COMPROBANTE_RESPONSE,
  notificationAuthorization,
} from '@pago/domain/call-notificaciones';
import { maskEmail } from '@pago/domain/call-consultar-pago';
import { CANAL } from '@pago/domain/channel';
import { EMAIL_FAILED_MESSAGE, emailSentMessage } from '@pago/domain/errors';
import { postEnvelope } from '../../../lib/post-envelope';

export function enviarComprobanteRequest(rut: string, token: string, correo: string): EnviarComprobanteRequest {
  return { [ENVIAR_COMPROBANTE_REQUEST]: { userId: rut, canalLlamada: CANAL, token, rut, correo } };
}

/** What the member reads after a send: the server's confirmation, or the specification's failure message. */
export type EnviarComprobanteAnswer = { kind: 'sent'; message: string } | { kind: 'failed'; message: string };

/**
 * Call 8 (specification §7.8): e-mails the voucher of the session's paid transaction, with the PDF attached.
 * Never throws. Every failure reads the same to the member (specification §8 'E-mail failed'): the mail server
 * failed (502), the per-session limit was reached (HTTP 429, code 514), the network failed, the session is gone.
 * Only the first two can succeed on a retry, but the member cannot tell them apart and needs no more detail.
 */
export async function enviarComprobante(rut: string, token: string, correo: string): Promise<EnviarComprobanteAnswer> {
  const failed = { kind: 'failed', message: EMAIL_FAILED_MESSAGE } as const;
  try {
    const answer = await postEnvelope(
      ENVIAR_COMPROBANTE_PATH,
      enviarComprobanteRequest(rut, token, correo),
      ENVIAR_COMPROBANTE_RESPONSE,
      { headers: { Authorization: notificationAuthorization(rut, token) } },
    );
    if (answer.kind === 'error') return failed;
    const sent = enviarComprobanteOkSchema.safeParse(answer.response);
    if (!sent.success) return failed;
    // The server's description carries the masked address; an empty one is rebuilt the same way (spec §9).
    return { kind: 'sent', message: sent.data.descripcion.trim() || emailSentMessage(maskEmail(correo)) };
  } catch {
    return failed;
  }
}
