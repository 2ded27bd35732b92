import { authOkSchema, hostRefusalSchema, initMallOkSchema } from '@pago/domain/schemas/answers';
import type { InitMallRequest } from '@pago/domain/schemas/call-pagoexpress';
import { AUTH_PATH, INIT_MALL_PATH } from '@pago/domain/call-pagoexpress';
import type { DetalleError } from '@pago/domain/errors';
import { ApiError, postJson } from '../../../lib/api-client';

// Calls 9 and 10 of specification §7, on the payment host (@pago/domain/call-pagoexpress).

export type HostAnswer<T> = ({ kind: 'ok' } & T) | { kind: 'error'; error: DetalleError };

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function refusal(path: string, body: unknown): { kind: 'error'; error: DetalleError } {
  const parsed = hostRefusalSchema.safeParse(body);
  if (!parsed.success) throw new ApiError('parse', path, 200);
  return { kind: 'error', error: { codigo: String(parsed.data.code), descripcion: parsed.data.descripcion } };
}

/**
 * Call 9: the member's session (Bearer) asks to pay transaction `idTransaction` by card and gets the payment host's
 * token. Throws ApiError without a usable answer (network, non-2xx, unreadable body).
 */
export async function authCardPayment(
  sessionToken: string,
  idTransaction: string,
): Promise<HostAnswer<{ token: string }>> {
  const body = await postJson(AUTH_PATH, { idTransaction }, { headers: bearer(sessionToken) });
  const ok = authOkSchema.safeParse(body);
  return ok.success ? { kind: 'ok', token: ok.data.token } : refusal(AUTH_PATH, body);
}

/** Call 10: opens the Webpay Mall transaction; answers Webpay's token and the URL of its card form. */
export async function initMall(
  hostToken: string,
  request: InitMallRequest,
): Promise<HostAnswer<{ token: string; url: string }>> {
  const body = await postJson(INIT_MALL_PATH, request, { headers: bearer(hostToken) });
  const ok = initMallOkSchema.safeParse(body);
  return ok.success ? { kind: 'ok', token: ok.data.token, url: ok.data.url } : refusal(INIT_MALL_PATH, body);
}
