import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));
const ROOT = join(API_DIR, '..', '..');

/**
 * Bundles the API from the current source exactly as `npm run build -w @pago/api` does, into a folder of its own
 * under apps/api/dist (so the migrations and node_modules are found the same way), and answers the script.
 */
export async function bundleApi(): Promise<{ script: string; remove(): void }> {
  const dir = join(API_DIR, 'dist', `reliability-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(API_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const script = join(dir, 'server.js');
  await build({
    entryPoints: [join(API_DIR, 'src', 'server.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    external: Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@pago/')),
    logLevel: 'warning',
  });
  return { script, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export interface ApiProcess {
  readonly url: string;
  readonly port: number;
  output(): string;
  /** SIGKILL: no shutdown hook runs, connections drop mid-transaction. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same environment. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`API did not start in time:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One API process of the bundle: `node server.js` with the given environment on a port of its own. */
export async function startApiProcess(script: string, env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  let child: ChildProcess;
  const fullEnv = { PATH: process.env.PATH ?? '', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), PUBLIC_BASE_URL: url, ...env };
  const launch = async () => {
    child = spawn(process.execPath, [script], { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitHealthy(url, child, () => log);
  };
  const exited = (c: ChildProcess) => (c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r())));
  await launch();
  return {
    url,
    port,
    output: () => log,
    async kill() {
      const c = child;
      const gone = exited(c);
      c.kill('SIGKILL');
      await gone;
    },
    restart: launch,
    async stop() {
      const c = child;
      if (c.exitCode !== null || c.signalCode !== null) return;
      const gone = exited(c);
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/**
 * A TCP proxy in front of a server (PostgreSQL, Webpay): it can cut every connection and refuse new ones, hold
 * traffic without answering (a partition), or delay it, and then heal — the network faults the suite injects.
 */
export class FaultyProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** What crossed the partition while it lasted, in order: delivered when it heals. */
  private held: (() => void)[] = [];
  mode: 'pass' | 'refuse' | 'blackhole' = 'pass';
  delayMs = 0;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  // TCP never loses bytes silently: across a partition they arrive late (retransmitted once it heals) or the
  // connection dies. Dropping them here would desynchronise the protocol in a way no real network can.
  private crossing(run: () => void): void {
    if (this.mode === 'blackhole') this.held.push(run);
    else run();
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    if (this.mode === 'refuse') {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    this.sockets.add(upstream);
    // A close is a FIN on the wire: it crosses the partition behind the data sent before it.
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      this.crossing(() => client.end());
    });
    upstream.on('error', () => upstream.destroy());
    client.on('close', () => this.crossing(() => upstream.end()));
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) =>
        this.crossing(() => {
          if (this.delayMs > 0) setTimeout(() => to.writable && to.write(chunk), this.delayMs);
          else if (to.writable) to.write(chunk);
        }),
      );
    // During a partition the connection request itself does not reach the server: it is made once it heals.
    this.crossing(() => {
      if (client.destroyed) return;
      upstream.connect(this.targetPort, this.targetHost, () => {
        forward(client, upstream);
        forward(upstream, client);
      });
    });
  }

  /** Drops every open connection (RST to both sides) and refuses new ones until heal(). */
  cut(): void {
    this.mode = 'refuse';
    this.held = [];
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
  }

  /**
   * A network partition that drops packets without a reset: connections stay open and new ones are accepted, but
   * no byte (nor close) crosses in either direction until heal(), which delivers them in order.
   */
  blackhole(): void {
    this.mode = 'blackhole';
  }

  heal(): void {
    this.mode = 'pass';
    this.delayMs = 0;
    const held = this.held;
    this.held = [];
    for (const run of held) run();
  }

  async close(): Promise<void> {
    this.held = [];
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}


/** One number read over a connection of its own, beside the application's pool. */
async function countOnServer(baseUrl: string, query: string, database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const res = await admin.query(query, [database]);
    return (res.rows[0] as { n: number }).n;
  } finally {
    await admin.end();
  }
}

/** Backends of a database inside a transaction right now (and so possibly holding row locks). */
export function backendsInTransaction(baseUrl: string, database: string): Promise<number> {
  return countOnServer(baseUrl, 'select count(*)::int as n from pg_stat_activity where datname = $1 and xact_start is not null and pid <> pg_backend_pid()', database);
}

/** Terminates every backend connected to a database (the app's connections dying under it). */
export function terminateBackends(baseUrl: string, database: string): Promise<number> {
  return countOnServer(baseUrl, 'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', database);
}
