import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789';

export interface Product {
  baseUrl: string;
  /** Everything the API process wrote, for tests that read the logs. */
  output(): string;
  setParameter(nombre: string, valor: string): Promise<void>;
  stop(): Promise<void>;
}

/** Today (in Santiago) at 16:00 UTC: 12:00 or 13:00 there, inside every family's opening hours. */
export function businessNoon(): Date {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
  return new Date(`${today}T16:00:00Z`);
}

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

/**
 * Starts the production build of the API (serving the built SPA) on a port and an in-memory database of its own,
 * seeded with the demo members, exactly as `npm start` would but isolated per test file.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['apps/api/dist/server.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PGLITE_DIR: 'memory://',
      SANDBOX: '1',
      ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      // Business time starts at today's noon in Santiago, so opening hours never depend on when the suite runs.
      SANDBOX_CLOCK: businessNoon().toISOString(),
      RATE_LIMIT_LISTAR_PER_IP: '1000',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API did not start in time:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    baseUrl,
    output: () => log,
    async setParameter(nombre, valor) {
      const res = await fetch(`${baseUrl}/admin/parametros/${nombre}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ valor }),
      });
      if (!res.ok) throw new Error(`setParameter ${nombre}=${valor}: ${res.status} ${await res.text()}`);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
