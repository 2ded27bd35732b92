import type { DetalleError } from '@pago/domain/errors-plain';
import { z } from 'zod';
import { ApiError, postJson } from '../../../lib/api-client';
import type { StoreTransaction } from '../card-stores';

// Calls 9 and 10 of specification §7, on the payment host. Unlike the cooperative's calls they are not wrapped in a
// request/response envelope: the answer is { code, token } or { token, url }, and a refusal is { code, descripcion }.
export const AUTH_PATH = '/api/pagoexpress/auth';
export const INIT_MALL_PATH = '/api/pagoexpress/initMall';

export type HostAnswer<T> = ({ kind: 'ok' } & T) | { kind: 'error'; error: DetalleError };

/** 0 is success; the payment host sends numbers, a string of digits is read the same. */
const codeSchema = z.union([z.number().int(), z.string().regex(/^-?\d+$/).transform(Number)]);
const refusalSchema = z.object({ code: codeSchema.refine((code) => code !== 0), descripcion: z.string().optional() });
const authOkSchema = z.object({ code: codeSchema.refine((code) => code === 0), token: z.string().min(1).max(512) });
/** The form is posted to this URL: nothing but a web address will do (no javascript:, no relative path). */
const webpayUrlSchema = z.string().max(255).refine(isWebUrl);
const initMallOkSchema = z.object({ token: z.string().min(1).max(64), url: webpayUrlSchema });

function isWebUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function refusal(path: string, body: unknown): { kind: 'error'; error: DetalleError } {
  const parsed = refusalSchema.safeParse(body);
  if (!parsed.success) throw new ApiError('parse', path, 200);
  return { kind: 'error', error: { codigo: String(parsed.data.code), descripcion: parsed.data.descripcion ?? '' } };
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

export interface InitMallRequest {
  sessionId: string;
  transactionId: string;
  storesTransaction: StoreTransaction[];
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
