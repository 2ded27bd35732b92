// The console's calls to the operator API: the session cookie goes by itself (same origin), the CSRF token in a
// header on every state-changing call. Every answer is an envelope { nameResponse: … }.

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

async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; data: T }> {
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
  return { status: response.status, data: inner as T };
}

export const api = {
  get: <T>(path: string) => call<T>('GET', path).then((r) => r.data),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => call<T>('PUT', path, body),
};

export interface Session {
  nombre: string;
  roles: string[];
  permisos: string[];
  csrf: string;
}

/** Who is signed in, or null. */
export async function loadSession(): Promise<Session | null> {
  const response = await fetch('/operador/api/sesion', { credentials: 'same-origin' });
  if (!response.ok) throw new ApiError(response.status, 'La consola no responde.');
  const session = ((await response.json()) as { operadorResponse: { sesion: Session | null } }).operadorResponse.sesion;
  if (session) setCsrf(session.csrf);
  return session;
}

export async function signOut(): Promise<void> {
  await fetch('/operador/salir', { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken } });
}

export const clp = (amount: number) => `$${Math.round(amount).toLocaleString('es-CL')}`;
export const dateTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('es-CL', { timeZone: 'America/Santiago', dateStyle: 'short', timeStyle: 'medium' }) : '—');
/** Today in Santiago as YYYY-MM-DD. */
export const todayIso = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Santiago' });
