import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEMO_OPERATORS, DEMO_OTP } from '../../src/operator/demo-operators';

/** A browser's cookies, enough for the sign-in's redirects (paths and expiry beyond Max-Age=0 are not needed here). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: LightMyRequestResponse): void {
    const header = res.headers['set-cookie'];
    for (const line of Array.isArray(header) ? header : header ? [header] : []) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

export interface OperatorSession {
  nombre: string;
  /** The Cookie header of the signed-in browser. */
  cookie: string;
  csrf: string;
  jar: CookieJar;
}

/** Follows redirects inside the operator's instance as a browser would, carrying the jar. */
async function follow(operator: FastifyInstance, jar: CookieJar, res: LightMyRequestResponse, visited: string[] = []): Promise<LightMyRequestResponse> {
  let current = res;
  for (let hops = 0; hops < 10 && current.statusCode >= 300 && current.statusCode < 400; hops++) {
    const location = new URL(String(current.headers.location), 'http://localhost');
    visited.push(`${location.pathname}${location.search}`);
    current = await operator.inject({ method: 'GET', url: `${location.pathname}${location.search}`, headers: { cookie: jar.header() } });
    jar.take(current);
  }
  return current;
}

/**
 * Signs a demo operator in at the sandbox's embedded provider, through the console's own routes (authorization code
 * with PKCE), and answers the session's cookie and CSRF token. `codigo: false` signs in without the second factor.
 */
export async function signInAs(
  operator: FastifyInstance,
  usuario: string,
  options: { codigo?: string | false; clave?: string } = {},
): Promise<{ final: LightMyRequestResponse; jar: CookieJar; session: OperatorSession | null; visited: string[] }> {
  const visited: string[] = [];
  const demo = DEMO_OPERATORS.find((o) => o.usuario === usuario);
  const jar = new CookieJar();
  const start = await operator.inject({ method: 'GET', url: '/operador/entrar' });
  if (start.statusCode !== 303) throw new Error(`sign-in did not start: ${start.statusCode} ${start.body}`);
  jar.take(start);
  const form = await follow(operator, jar, start);
  const action = /action="([^"]+)"/.exec(form.body)?.[1];
  if (form.statusCode !== 200 || !action) throw new Error(`no login form: ${form.statusCode} ${form.body.slice(0, 300)}`);
  const fields = new URLSearchParams({ usuario, clave: options.clave ?? demo?.clave ?? 'x', codigo: options.codigo === false ? '' : (options.codigo ?? DEMO_OTP) });
  const posted = await operator.inject({
    method: 'POST',
    url: action.replaceAll('&amp;', '&'),
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: fields.toString(),
  });
  jar.take(posted);
  const final = await follow(operator, jar, posted, visited);
  const cookie = jar.get('operador_sesion');
  if (!cookie) return { final, jar, session: null, visited };
  const who = await operator.inject({ method: 'GET', url: '/operador/api/sesion', headers: { cookie: jar.header() } });
  const body = who.json().operadorResponse.sesion as { nombre: string; csrf: string };
  return { final, jar, session: { nombre: body.nombre, cookie: `operador_sesion=${cookie}`, csrf: body.csrf, jar }, visited };
}

/** signInAs, failing unless a session opened. */
export async function operatorSession(operator: FastifyInstance, usuario: string): Promise<OperatorSession> {
  const { final, session } = await signInAs(operator, usuario);
  if (!session) throw new Error(`${usuario} did not sign in: ${final.statusCode} ${final.body.slice(0, 300)}`);
  return session;
}

/** Headers of a state-changing call from the console: the session's cookie and its CSRF token. */
export const asOperator = (session: OperatorSession) => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });
