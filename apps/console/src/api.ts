// The console's calls to the operator API: the session cookie goes by itself (same origin), the CSRF token in a
// header on every state-changing call. Every answer is an envelope { nameResponse: … }, whose content is parsed with
// the schema the API's route declares (packages/domain/src/schemas/admin.ts): one contract for both sides.
import { sessionSchema, type OperatorSession } from '@pago/domain/schemas/admin';
import * as z from 'zod/mini';

let csrfToken = '';

export function setCsrf(token: string): void {
  csrfToken = token;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The session ended (idle, absolute time-out, logout elsewhere): the app shows the sign-in again. */
export const SESSION_ENDED = 'session-ended';

/** An answer's schema; its output (dates as Date) is what a screen reads. */
export type Answer = z.ZodMiniType;

async function call<S extends Answer>(method: 'GET' | 'POST' | 'PUT', path: string, schema: S, body?: unknown): Promise<{ status: number; data: z.output<S> }> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const payload = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const inner = payload ? (Object.values(payload)[0] as Record<string, unknown> | undefined) : undefined;
  if (response.status === 401) {
    window.dispatchEvent(new Event(SESSION_ENDED));
    throw new ApiError(401, 'Su sesión terminó. Ingrese otra vez.');
  }
  if (!response.ok) {
    const detail = (inner?.error as { errores?: { detalleError?: { descripcion?: string } } } | undefined)?.errores?.detalleError?.descripcion;
    throw new ApiError(response.status, detail ?? `Error ${response.status}`);
  }
  const parsed = z.safeParse(schema, inner);
  if (!parsed.success) throw new ApiError(response.status, 'La respuesta del servidor no tiene la forma esperada.');
  return { status: response.status, data: parsed.data };
}

export const api = {
  get: <S extends Answer>(path: string, schema: S) => call('GET', path, schema).then((r) => r.data),
  post: <S extends Answer>(path: string, schema: S, body?: unknown) => call('POST', path, schema, body),
  put: <S extends Answer>(path: string, schema: S, body?: unknown) => call('PUT', path, schema, body),
};

export type Session = OperatorSession;

/** Who is signed in, or null. */
export async function loadSession(): Promise<Session | null> {
  const response = await fetch('/operador/api/sesion', { credentials: 'same-origin' });
  if (!response.ok) throw new ApiError(response.status, 'La consola no responde.');
  const answer = z.safeParse(z.object({ operadorResponse: sessionSchema }), await response.json());
  if (!answer.success) throw new ApiError(response.status, 'La consola no responde.');
  const session = answer.data.operadorResponse.sesion;
  if (session) setCsrf(session.csrf);
  return session;
}

export async function signOut(): Promise<void> {
  await fetch('/operador/salir', { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken } });
}

export const clp = (amount: number) => `$${Math.round(amount).toLocaleString('es-CL')}`;
/** Every instant the console shows, in one format and in Chile's time: 29-11-2026 14:05:09. */
export const dateTime = (at: Date | string | null | undefined) => (at ? new Date(at).toLocaleString('es-CL', { timeZone: 'America/Santiago', dateStyle: 'short', timeStyle: 'medium' }) : '—');
/** A calendar day 'YYYY-MM-DD' (a due date) in the same format as dateTime's days: 29-11-2026. */
export const day = (iso: string | null | undefined) => (iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso.split('-').reverse().join('-') : '—');
/** Today in Santiago as YYYY-MM-DD. */
export const todayIso = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Santiago' });
