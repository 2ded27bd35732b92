import { businessNoon } from '@pago/domain/business-time';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789';

export interface Product {
  baseUrl: string;
  /** The Webpay simulator's origin (its hosted card form). */
  webpayUrl: string;
  /** The core banking simulator's origin (its books at /__sim/books). */
  coreUrl: string;
  /** Everything the API process wrote, for tests that read the logs. */
  output(): string;
  setParameter(nombre: string, valor: string): Promise<void>;
  /** Moves the API's business clock (the sandbox's /sandbox/reloj): opening hours follow it, the phone's clock does not. */
  setBusinessTime(instant: Date): Promise<void>;
  stop(): Promise<void>;
}

/** What the e2e tests read of the core simulator's books (/__sim/books). */
export interface CoreBooks {
  loans: { id: number; externalId: string; periods: { period: number; totalOutstandingForPeriod: number }[] }[];
  savings: { externalId: string; balance: number }[];
  writes: { idempotencyKey: string | null; path: string; statusCode: number; note?: string }[];
}

export async function coreBooks(coreUrl: string): Promise<CoreBooks> {
  return (await (await fetch(`${coreUrl}/__sim/books`)).json()) as CoreBooks;
}

export interface ProductOptions {
  /** Extra environment of the API. */
  env?: Record<string, string>;
  /** Extra environment of the Webpay simulator. */
  webpayEnv?: Record<string, string>;
}

export { businessNoon };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  output(): string;
}

function run(script: string, env: Record<string, string>): Running {
  let log = '';
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return { child, output: () => log };
}

async function waitHealthy(url: string, proc: Running, name: string): Promise<void> {
  // A loaded machine (PGlite migrating in WebAssembly beside other suites) can take over a minute to boot the API.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${name} exited with ${proc.child.exitCode}:\n${proc.output()}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.child.kill('SIGKILL');
      throw new Error(`${name} did not start in time:\n${proc.output()}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the production build as `npm start` would, isolated per test file: the API (serving the built SPA) on a
 * port and an in-memory database of its own seeded with the demo members, and the Webpay and core simulators on
 * their own.
 */
export async function startProduct(options: ProductOptions | Record<string, string> = {}): Promise<Product> {
  const opts: ProductOptions = 'env' in options || 'webpayEnv' in options ? (options as ProductOptions) : { env: options as Record<string, string> };
  const [port, simPort, corePort] = [await freePort(), await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${port}`;
  const webpayUrl = `http://127.0.0.1:${simPort}`;
  const coreUrl = `http://127.0.0.1:${corePort}`;

  const sim = run('apps/webpay-sim/dist/server.js', {
    HOST: '127.0.0.1',
    WEBPAY_SIM_PORT: String(simPort),
    WEBPAY_SIM_PUBLIC_URL: webpayUrl,
    ...opts.webpayEnv,
  });
  // The core's business day is the API's: the demo members' schedules agree on both sides.
  const core = run('apps/core-sim/dist/server.js', { HOST: '127.0.0.1', CORE_SIM_PORT: String(corePort), CORE_SIM_TODAY: businessNoon().toISOString().slice(0, 10) });
  const api = run('apps/api/dist/server.js', {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    PGLITE_DIR: 'memory://',
    SANDBOX: '1',
    ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    WEBPAY_BASE_URL: webpayUrl,
    CORE_BASE_URL: `${coreUrl}/fineract-provider/api`,
    // Card credits reach the core within a second, so a journey can look them up there.
    CORE_POST_INTERVAL_SECONDS: '1',
    // Business time starts at today's noon in Santiago, so opening hours never depend on when the suite runs.
    SANDBOX_CLOCK: businessNoon().toISOString(),
    // The journeys list the same demo members many times from one address; the limits have tests of their own.
    RATE_LIMIT_LISTAR_PER_IP: '1000',
    RATE_LIMIT_LISTAR_PER_RUT: '1000',
    RATE_LIMIT_LISTAR_RUT_CEILING: '1000',
    RATE_LIMIT_CAPTCHA_PER_IP: '1000',
    RATE_LIMIT_RETURN_PER_IP: '1000',
    RATE_LIMIT_LOGIN_PER_IP: '1000',
    RATE_LIMIT_LOGIN_PER_PAYER: '1000',
    RATE_LIMIT_LOGIN_FAILED_PAYERS: '1000',
    RATE_LIMIT_MAIL_PER_IP: '1000',
    RATE_LIMIT_PDF_PER_SESSION: '1000',
    RATE_LIMIT_PDF_PER_IP: '1000',
    RATE_LIMIT_SELECT_PER_SESSION: '1000',
    RATE_LIMIT_SELECT_PER_IP: '1000',
    RATE_LIMIT_LOG_PER_IP: '1000',
    RATE_LIMIT_ADMIN_PER_IP: '1000',
    // A cheaper proof of work than production's, so no journey races the captcha on a slow machine.
    ALTCHA_COUNTER_MIN: '500',
    ALTCHA_COUNTER_MAX: '1000',
    ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    ...opts.env,
  });
  await Promise.all([waitHealthy(webpayUrl, sim, 'Webpay simulator'), waitHealthy(coreUrl, core, 'core simulator'), waitHealthy(baseUrl, api, 'API')]);

  return {
    baseUrl,
    webpayUrl,
    coreUrl,
    output: api.output,
    async setParameter(nombre, valor) {
      const res = await fetch(`${baseUrl}/admin/parametros/${nombre}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ valor }),
      });
      if (!res.ok) throw new Error(`setParameter ${nombre}=${valor}: ${res.status} ${await res.text()}`);
    },
    async setBusinessTime(instant) {
      const res = await fetch(`${baseUrl}/sandbox/reloj`, {
        method: 'POST',
        headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ instante: instant.toISOString() }),
      });
      if (!res.ok) throw new Error(`setBusinessTime ${instant.toISOString()}: ${res.status} ${await res.text()}`);
    },
    async stop() {
      await Promise.all([stopProcess(api.child), stopProcess(sim.child), stopProcess(core.child)]);
    },
  };
}
