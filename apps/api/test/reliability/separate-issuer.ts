import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_ISSUER_PATH } from '../../src/operator/sandbox-provider';
import type { Target } from './http';
import { freePort } from './processes';
import { makeCertificate } from './tls';

const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));

export interface SeparateIssuer {
  /** https://HOST:PORT/sandbox/oidc: what OIDC_ISSUER names. */
  issuer: string;
  /** The certificate authority the API must trust (NODE_EXTRA_CA_CERTS). */
  caFile: string;
  close(): Promise<void>;
}

/**
 * The sandbox's identity provider run as an issuer of its own, in a process of its own (issuer-main.ts), over TLS
 * with a certificate made for this run, under a host name the harness resolves (hosts-preload.mjs): what production
 * talks to. `env` adds the API's clock (libfaketime), so both agree on the ID token's times.
 */
export async function startSeparateIssuer(options: { host: string; clientSecret: string; redirectUri: string; env?: Record<string, string> }): Promise<SeparateIssuer> {
  const dir = mkdtempSync(join(tmpdir(), 'pago-issuer-'));
  const { keyFile, certFile: caFile } = makeCertificate(options.host, dir, options.env?.['LD_PRELOAD']);
  const port = await freePort();
  const issuer = `https://${options.host}:${port}${SANDBOX_ISSUER_PATH}`;
  const child = spawn(TSX, [fileURLToPath(new URL('./issuer-main.ts', import.meta.url))], {
    env: {
      PATH: process.env.PATH ?? '',
      ...options.env,
      ISSUER: issuer,
      ISSUER_PORT: String(port),
      ISSUER_CLIENT_SECRET: options.clientSecret,
      ISSUER_REDIRECT_URI: options.redirectUri,
      ISSUER_KEY_FILE: keyFile,
      ISSUER_CERT_FILE: caFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the issuer did not start:\n${log}`)), 30_000);
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('issuer listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the issuer exited with ${code}:\n${log}`));
    });
  });
  return {
    issuer,
    caFile,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Answer {
  status: number;
  location: string | undefined;
  setCookie: string[];
  body: string;
}

/** A browser's cookies for one site (paths and expiry left out: enough for one sign-in). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(lines: string[]): void {
    for (const line of lines) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === '' || /;\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/** A call to the issuer as a browser makes it: by its name (TLS checked against its certificate), on 127.0.0.1. */
function issuerCall(url: URL, caFile: string, method: 'GET' | 'POST', cookie: string, form?: URLSearchParams): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = form?.toString();
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        servername: url.hostname,
        ca: readFileSync(caFile),
        method,
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host, ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, setCookie: res.headers['set-cookie'] ?? [], body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Signs an operator in as a browser would, with the API in production mode: /operador/entrar on the operator's port,
 * the issuer's login form, and the callback back on the operator's port (OPERATOR_BASE_URL's origin stands for it).
 */
export async function signInAtIssuer(
  operator: Target,
  issuer: SeparateIssuer,
  credentials: { usuario: string; clave: string; codigo: string },
): Promise<{ status: number; body: string; sessionCookie: string | null }> {
  const start = await operator.request({ method: 'GET', url: '/operador/entrar' });
  if (start.status !== 303 || !start.headers.location) throw new Error(`sign-in did not start: ${start.status} ${start.body}`);
  const loginCookie = /operador_ingreso=([^;]+)/.exec(start.headers['set-cookie'] ?? '')?.[1] ?? '';
  const jar = new Jar();
  let url = new URL(start.headers.location);
  if (url.origin !== new URL(issuer.issuer).origin) throw new Error(`sign-in went to ${url.origin}, not the issuer`);
  let answer = await issuerCall(url, issuer.caFile, 'GET', jar.header());
  jar.take(answer.setCookie);
  const follow = async () => {
    while (answer.status >= 300 && answer.status < 400 && answer.location) {
      url = new URL(answer.location, url);
      if (url.origin !== new URL(issuer.issuer).origin) return;
      answer = await issuerCall(url, issuer.caFile, 'GET', jar.header());
      jar.take(answer.setCookie);
    }
  };
  await follow();
  const action = /action="([^"]+)"/.exec(answer.body)?.[1];
  if (!action) throw new Error(`no login form at the issuer: ${answer.status} ${answer.body.slice(0, 300)}`);
  url = new URL(action.replaceAll('&amp;', '&'), url);
  answer = await issuerCall(url, issuer.caFile, 'POST', jar.header(), new URLSearchParams(credentials));
  jar.take(answer.setCookie);
  await follow();
  // Back at the console's callback: the operator's origin is OPERATOR_BASE_URL's; this harness reaches its port.
  if (!url.pathname.endsWith('/operador/callback')) throw new Error(`no callback: ${answer.status} ${answer.body.slice(0, 300)}`);
  const callback = await operator.request({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { cookie: `operador_ingreso=${loginCookie}` } });
  const session = /operador_sesion=([^;]+)/.exec(callback.headers['set-cookie'] ?? '')?.[1] ?? null;
  return { status: callback.status, body: callback.body, sessionCookie: session ? `operador_sesion=${session}` : null };
}
