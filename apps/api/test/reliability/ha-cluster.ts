import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { postgresBinaries } from './postgres-server';
import { freePort } from './processes';

// Three PostgreSQL nodes under Patroni with etcd, synchronous replication to one standby (strict: a commit is
// acknowledged only once a standby has it), and HAProxy in front that sends connections to whichever node Patroni's
// REST API says is the primary (docs/decisions/025-postgresql-ha.md). Everything in a private directory, on free
// ports, run as the postgres user; the machine's own PostgreSQL server is never touched.

const TOOLS = { patroni: '/usr/bin/patroni', etcd: '/usr/bin/etcd', haproxy: '/usr/sbin/haproxy', pgbackrest: '/usr/bin/pgbackrest' };

/** Why this machine cannot run the cluster, or null. */
export function haMissing(): string | null {
  const binaries = postgresBinaries();
  if ('missing' in binaries) return binaries.missing;
  for (const [name, path] of Object.entries(TOOLS)) if (!existsSync(path)) return `${name} is not installed (${path})`;
  if (process.getuid?.() !== 0) return 'the cluster runs its servers as the postgres user: the tests must run as root';
  return null;
}

export interface HaNode {
  name: string;
  pgPort: number;
  restPort: number;
}

export interface HaCluster {
  /** The maintenance database through HAProxy: always the primary, whichever node it is. */
  url: string;
  nodes: HaNode[];
  /** The current primary's name, as Patroni says (null during a failover). */
  primary(): Promise<string | null>;
  /** Roles as Patroni lists them: 'leader', 'sync_standby', 'replica'. */
  roles(): Promise<Record<string, string>>;
  /** Kills a node's Patroni and PostgreSQL with SIGKILL, as a machine that dies. */
  kill(name: string): void;
  /** Starts a killed node again: it rejoins as a replica (pg_rewind when needed). */
  restart(name: string): void;
  /** A planned switchover to the synchronous standby, through Patroni's REST API. */
  switchover(): Promise<void>;
  /** Milliseconds until a write through HAProxy succeeds again. */
  untilWritable(maxMs: number): Promise<number>;
  /** Waits until the three nodes are a leader, a synchronous standby and a replica again. */
  untilFormed(maxMs: number): Promise<void>;
  /** A full pgBackRest backup of the current primary (WAL is archived continuously from whichever node is primary). */
  backup(): Promise<void>;
  /**
   * Restores the last backup and the archived WAL up to `target` into a new data directory, and starts it apart (a
   * standalone server on a port of its own, archiving off): the drill of a lost cluster.
   */
  restoreTo(target: Date): Promise<{ url: string; log(): string; stop(): Promise<void> }>;
  log(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startHaCluster(): Promise<HaCluster> {
  const binaries = postgresBinaries();
  if ('missing' in binaries) throw new Error(binaries.missing);
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  const dir = mkdtempSync('/tmp/pago-ha-');
  chownSync(dir, uid, gid);
  const children = new Map<string, ChildProcess>();
  const logs: string[] = [];
  const asPostgres = (name: string, command: string, args: string[]) => {
    const child = spawn(command, args, { cwd: dir, uid, gid, env: { PATH: process.env.PATH ?? '', HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => logs.push(`[${name}] ${chunk}`));
    child.stderr?.on('data', (chunk: Buffer) => logs.push(`[${name}] ${chunk}`));
    children.set(name, child);
    return child;
  };
  /** A command to completion, as the postgres user. */
  const runAs = (command: string, args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile(command, args, { cwd: dir, uid, gid, env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 120_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
      ),
    );
  const onExit = () => {
    for (const child of children.values()) child.kill('SIGKILL');
  };
  process.on('exit', onExit);

  const [etcdClient, etcdPeer, proxyPort] = [await freePort(), await freePort(), await freePort()];
  const nodes: HaNode[] = [];
  for (let i = 1; i <= 3; i++) nodes.push({ name: `node${i}`, pgPort: await freePort(), restPort: await freePort() });

  const etcdArgs = [
    '--name', 'etcd1', '--data-dir', join(dir, 'etcd'),
    '--listen-client-urls', `http://127.0.0.1:${etcdClient}`, '--advertise-client-urls', `http://127.0.0.1:${etcdClient}`,
    '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeer}`,
    '--initial-cluster', `etcd1=http://127.0.0.1:${etcdPeer}`, '--initial-cluster-state', 'new',
  ];
  asPostgres('etcd', TOOLS.etcd, etcdArgs);

  const config = (n: HaNode) => {
    const home = join(dir, n.name);
    return `scope: pago
name: ${n.name}
restapi:
  listen: 127.0.0.1:${n.restPort}
  connect_address: 127.0.0.1:${n.restPort}
etcd3:
  hosts: 127.0.0.1:${etcdClient}
bootstrap:
  dcs:
    # A leader that stops renewing its key for ttl seconds is replaced; loop_wait + 2 * retry_timeout <= ttl.
    ttl: 6
    loop_wait: 1
    retry_timeout: 2
    maximum_lag_on_failover: 0
    synchronous_mode: true
    synchronous_mode_strict: true
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_log_hints: 'on'
        max_connections: 200
  initdb:
    - encoding: UTF8
    - data-checksums
  pg_hba:
    - host replication postgres 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
    - local all all trust
postgresql:
  listen: 127.0.0.1:${n.pgPort}
  connect_address: 127.0.0.1:${n.pgPort}
  data_dir: ${join(home, 'data')}
  bin_dir: ${binaries.bin}
  pgpass: ${join(home, 'pgpass')}
  authentication:
    replication:
      username: postgres
    superuser:
      username: postgres
  parameters:
    unix_socket_directories: ${home}
    # Every WAL segment goes to the pgBackRest repository from whichever node is the primary.
    archive_mode: 'on'
    archive_command: '${TOOLS.pgbackrest} --config=${join(dir, 'pgbackrest.conf')} --stanza=pago --pg1-path=${join(home, 'data')} archive-push %p'
`;
  };
  for (const n of nodes) {
    const home = join(dir, n.name);
    mkdirSync(home);
    chownSync(home, uid, gid);
    writeFileSync(join(home, 'patroni.yml'), config(n));
  }
  writeFileSync(
    join(dir, 'pgbackrest.conf'),
    `[global]\nrepo1-path=${join(dir, 'backups')}\nrepo1-retention-full=2\nlog-path=${join(dir, 'pgbackrest-log')}\nlock-path=${join(dir, 'pgbackrest-lock')}\nstart-fast=y\nlog-level-console=warn\n`,
  );
  const pgbackrest = (args: string[]) => runAs(TOOLS.pgbackrest, [`--config=${join(dir, 'pgbackrest.conf')}`, '--stanza=pago', ...args]);
  /** The options that name a node's server to pgBackRest. */
  const pgOptions = (n: HaNode) => [`--pg1-path=${join(dir, n.name, 'data')}`, `--pg1-port=${n.pgPort}`, `--pg1-socket-path=${join(dir, n.name)}`];
  const startNode = (n: HaNode) => asPostgres(n.name, TOOLS.patroni, [join(dir, n.name, 'patroni.yml')]);

  // HAProxy sends each connection to the node whose Patroni answers 200 on /primary, and ends the sessions of a node
  // that stops being the primary, so no pooled connection stays on a demoted node.
  const haproxyConfig = `global
  maxconn 1000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen primary
  bind 127.0.0.1:${proxyPort}
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 300ms fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.pgPort} check port ${n.restPort}`).join('\n')}
`;
  writeFileSync(join(dir, 'haproxy.cfg'), haproxyConfig);

  const rest = async (n: HaNode, path: string, init?: RequestInit, timeoutMs = 2_000) => fetch(`http://127.0.0.1:${n.restPort}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  type Member = { name: string; role: string; state: string; lag?: number | string };
  const members = async (): Promise<Member[]> => {
    for (const n of nodes) {
      try {
        return ((await (await rest(n, '/cluster')).json()) as { members: Member[] }).members;
      } catch {
        // that node is down: ask another
      }
    }
    return [];
  };
  const roles = async () => Object.fromEntries((await members()).map((m) => [m.name, m.role]));
  /** Three nodes running, a leader, a synchronous standby, and every replica streaming close behind. */
  const formed = (all: Member[]) =>
    all.length === 3 &&
    all.some((m) => m.role === 'leader') &&
    all.some((m) => m.role === 'sync_standby') &&
    all.every((m) => ['running', 'streaming'].includes(m.state) && (m.role === 'leader' || (typeof m.lag === 'number' && m.lag < 16 * 1024 * 1024)));
  const primary = async () => Object.entries(await roles()).find(([, role]) => role === 'leader')?.[0] ?? null;
  const url = `postgres://postgres@127.0.0.1:${proxyPort}/postgres`;
  const untilWritable = async (maxMs: number) => {
    const from = Date.now();
    while (Date.now() - from < maxMs) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000, query_timeout: 2_000 });
      try {
        await client.connect();
        await client.query('create temporary table ha_probe (x int); insert into ha_probe values (1)');
        return Date.now() - from;
      } catch {
        await sleep(100);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    return Number.POSITIVE_INFINITY;
  };
  const byName = (name: string) => {
    const n = nodes.find((node) => node.name === name);
    if (!n) throw new Error(`no node ${name}`);
    return n;
  };
  const postmasterPid = (n: HaNode) => {
    try {
      return Number(readFileSync(join(dir, n.name, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
    } catch {
      return null;
    }
  };

  const cluster: HaCluster = {
    url,
    nodes,
    primary,
    roles,
    kill(name) {
      const n = byName(name);
      const pid = postmasterPid(n);
      children.get(name)?.kill('SIGKILL');
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
    restart(name) {
      startNode(byName(name));
    },
    async switchover() {
      const current = await roles();
      const leader = Object.entries(current).find(([, r]) => r === 'leader')?.[0];
      const candidate = Object.entries(current).find(([, r]) => r === 'sync_standby')?.[0];
      if (!leader || !candidate) throw new Error(`no leader and synchronous standby to switch: ${JSON.stringify(current)}`);
      const res = await rest(byName(leader), '/switchover', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ leader, candidate }) }, 60_000);
      if (!res.ok) throw new Error(`switchover refused: ${res.status} ${await res.text()}`);
    },
    untilWritable,
    async untilFormed(maxMs) {
      const deadline = Date.now() + maxMs;
      for (;;) {
        const all = await members();
        if (formed(all)) return;
        if (Date.now() > deadline) throw new Error(`the cluster did not form: ${JSON.stringify(all)}\n${logs.join('').slice(-3000)}`);
        await sleep(250);
      }
    },
    async backup() {
      const leader = byName((await primary())!);
      await pgbackrest([...pgOptions(leader), 'backup', '--type=full']);
    },
    async restoreTo(target) {
      const home = join(dir, `restore-${Date.now()}`);
      mkdirSync(home);
      chownSync(home, uid, gid);
      const data = join(home, 'data');
      // The WAL that holds the target's commits must be in the archive: close the current segment.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('select pg_switch_wal()');
      await client.end();
      await sleep(1_000);
      await pgbackrest([`--pg1-path=${data}`, '--type=time', `--target=${target.toISOString().replace('T', ' ').replace('Z', '+00')}`, '--target-action=promote', 'restore']);
      const port = await freePort();
      // Apart from the cluster: its own port and socket, no archiving, no synchronous standby to wait for.
      const options = `-p ${port} -k ${home} -c listen_addresses=127.0.0.1 -c archive_mode=off -c synchronous_standby_names='' -c hba_file=${join(data, 'pg_hba.conf')} -c ident_file=${join(data, 'pg_ident.conf')}`;
      await runAs(join(binaries.bin, 'pg_ctl'), ['start', '-D', data, '-o', options, '-l', join(home, 'log'), '-w', '-t', '120']);
      // pg_ctl returns once it takes read-only connections: the WAL up to the target is replayed, and the server
      // promoted, only when recovery ends.
      const restoredUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
      for (let i = 0; ; i++) {
        const probe = new pg.Client({ connectionString: restoredUrl });
        const recovering = await probe.connect().then(() => probe.query<{ r: boolean }>('select pg_is_in_recovery() as r')).then((res) => res.rows[0]?.r ?? true, () => true);
        await probe.end().catch(() => undefined);
        if (!recovering) break;
        if (i > 600) throw new Error(`the restored server did not finish its recovery:\n${readFileSync(join(home, 'log'), 'utf8').slice(-3000)}`);
        await sleep(200);
      }
      return {
        url: restoredUrl,
        log: () => (existsSync(join(home, 'log')) ? readFileSync(join(home, 'log'), 'utf8') : ''),
        stop: async () => {
          await runAs(join(binaries.bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate']).catch(() => undefined);
        },
      };
    },
    log: () => logs.join(''),
    async stop() {
      process.off('exit', onExit);
      for (const child of children.values()) child.kill('SIGTERM');
      await sleep(2_000);
      for (const n of nodes) {
        const pid = postmasterPid(n);
        if (pid) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      for (const child of children.values()) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    // etcd first, then the nodes one after another: the first to start bootstraps the cluster.
    for (let i = 0; i < 50 && !(await fetch(`http://127.0.0.1:${etcdClient}/version`).then((r) => r.ok).catch(() => false)); i++) await sleep(100);
    for (const n of nodes) {
      startNode(n);
      await sleep(500);
    }
    asPostgres('haproxy', TOOLS.haproxy, ['-f', join(dir, 'haproxy.cfg'), '-db']);
    // Ready when there is a leader, a synchronous standby and a replica, and a write goes through.
    await cluster.untilFormed(90_000);
    if (!Number.isFinite(await untilWritable(30_000))) throw new Error('no write went through HAProxy');
    await pgbackrest([...pgOptions(byName((await primary())!)), 'stanza-create']);
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
