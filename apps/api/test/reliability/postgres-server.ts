import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes';

// A PostgreSQL server of the test's own, so it can really be stopped, crashed and restarted: the machine's shared
// server serves the other test files running in parallel and must never go down.

const run = promisify(execFile);
const DEBIAN_PG = '/usr/lib/postgresql';

/** initdb refuses to run as root: then every server command runs as the postgres user. */
const asRoot = process.getuid?.() === 0;

/** Debian's server binaries (the newest version installed), or why this machine cannot run a server of its own. */
export function postgresBinaries(root = DEBIAN_PG): { bin: string } | { missing: string } {
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!bin) return { missing: `no PostgreSQL server binaries (initdb, pg_ctl) in ${root}/<version>/bin` };
  if (asRoot) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
      execFileSync('runuser', ['--version'], { stdio: 'ignore' });
    } catch {
      return { missing: 'running as root, and no postgres user or runuser to run initdb as' };
    }
  }
  return { bin };
}

export type ShutdownMode = 'fast' | 'immediate';

export interface PrivatePostgres {
  /** The server's maintenance database, for createPostgresDatabase. */
  readonly url: string;
  readonly port: number;
  /**
   * 'fast' rolls back open transactions, ends every session and checkpoints; 'immediate' kills the server without
   * a checkpoint, as a crash does, and the start that follows replays the WAL.
   */
  restart(mode: ShutdownMode): Promise<void>;
  stop(mode: ShutdownMode): Promise<void>;
  start(): Promise<void>;
  /** The server's own log. */
  log(): string;
  /** Stops it whatever state it is in and deletes its files; never throws. */
  remove(): Promise<void>;
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  // As root, a base every user can traverse (TMPDIR may be private to root).
  const dir = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'pago-pg-'));
  const data = join(dir, 'data');
  const logFile = join(dir, 'log');
  const command = async (tool: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    try {
      // cwd: the server's user may not be allowed into the project's directory.
      await run(file, argv, { cwd: dir, timeout: 90_000 });
    } catch (error) {
      const e = error as { stderr?: string; message?: string };
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
      throw new Error(`${tool} ${args[0] ?? ''} failed: ${e.stderr || e.message}\n${tail}`);
    }
  };
  let port = 0;
  let running = false;
  // The postmaster's pid, to stop it when the test process exits before afterAll (an interrupted run).
  const postmasterPid = () => {
    try {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
    } catch {
      return null;
    }
  };
  const onExit = () => {
    const pid = postmasterPid();
    if (running && pid) {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
  };
  // -o goes through pg_ctl's shell: the directory (from mkdtemp) has no spaces or quotes.
  const ctl = (action: string, ...extra: string[]) =>
    command('pg_ctl', [action, '-D', data, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', logFile, '-w', '-t', '60', ...extra]);

  const server: PrivatePostgres = {
    get url() {
      return `postgres://postgres@127.0.0.1:${port}/postgres`;
    },
    get port() {
      return port;
    },
    async restart(mode) {
      await ctl('restart', '-m', mode);
      running = true;
    },
    async stop(mode) {
      await ctl('stop', '-m', mode);
      running = false;
    },
    async start() {
      await ctl('start');
      running = true;
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    async remove() {
      process.off('exit', onExit);
      if (existsSync(join(data, 'postmaster.pid'))) {
        await ctl('stop', '-m', 'immediate').catch(() => {
          const pid = postmasterPid();
          if (pid) {
            try {
              process.kill(pid, 'SIGKILL');
            } catch {
              // already gone
            }
          }
        });
      }
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(dir, uid, gid);
    }
    // trust on loopback only: a throw-away server that listens on 127.0.0.1 and a private socket directory.
    await command('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    process.on('exit', onExit);
    // freePort's port may be taken again before the server binds it: then another one.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await server.start();
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    return server;
  } catch (error) {
    await server.remove();
    throw error;
  }
}
