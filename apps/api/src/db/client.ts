import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The same Drizzle surface over either driver: services never know which one they run on. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… for PostgreSQL; unset for embedded PGlite. */
  url?: string | undefined;
  /**
   * The schema's owner, which migrates and then grants `url`'s role what the API needs: everything but changing the
   * audit trail (decision 042). Unset, `url`'s role migrates (and owns everything).
   */
  ownerUrl?: string | undefined;
  /** PGlite data directory, or 'memory://' for a throw-away database. */
  pgliteDir?: string;
  /** PostgreSQL pool size. */
  poolMax?: number;
  /** PostgreSQL only; unset, nothing is bounded (the test harness's own connections). */
  timeouts?: DatabaseTimeouts | undefined;
}

/** Milliseconds; config.ts (DB_*_TIMEOUT_MS) says what each bounds. */
export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
  queryMs: number;
  idleInTransactionMs: number;
}

// An idle pooled connection to a server that vanished without a reset is found by the kernel's probes within
// seconds instead of the two hours Linux waits by default. Probes cannot help a connection with a query in flight
// (the unacknowledged bytes are retransmitted instead): query_timeout covers that.
const KEEPALIVE_DELAY_MS = 10_000;

/** What pg's query_timeout rejects with (node_modules/pg/lib/client.js). */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * pg's query_timeout only stops waiting: the statement stays in flight on the connection, and Drizzle's rollback
 * queues behind it. Released to the pool as healthy, the client would answer its next user with the stale statement's
 * result, and that user's BEGIN would run inside the abandoned transaction, so its COMMIT would also commit whatever
 * the abandoned one had applied: a half payment. Ending the client instead makes the queued rollback fail at once,
 * the pool discard the client, and the server roll the transaction back when the connection closes (or
 * idle_in_transaction_session_timeout ends it while the network is still cut).
 */
function endOnQueryTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const check = (error: unknown) => {
    if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) void client.end();
  };
  client.query = ((...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown) => {
        check(error);
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(check);
    return result;
  }) as typeof client.query;
}

// The migrations folder sits beside src/ and dist/ alike; walk up from this file (or the bundle) to find it.
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('migrations folder (drizzle/meta/_journal.json) not found');
}

// Two replicas booting together must not run the migrations twice; the lock id is arbitrary but fixed.
const MIGRATION_LOCK_ID = 727_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const t = options.timeouts;
    const connection = {
      connectionString: options.url,
      ...(t ? { connectionTimeoutMillis: t.connectMs, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS } : {}),
    };
    const pool = new pg.Pool({
      ...connection,
      max: options.poolMax ?? 10,
      ...(t ? { statement_timeout: t.statementMs, query_timeout: t.queryMs, idle_in_transaction_session_timeout: t.idleInTransactionMs } : {}),
    });
    // An idle client that loses its server (a restart) must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    // Nor may a checked-out one: a client held by a transaction between two queries (while argon2 verifies, while
    // Webpay answers) emits 'error' when its connection drops, and with no listener that kills the process. The
    // query in flight, or the next one, fails on its own; the pool discards the broken client when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => {});
      if (t) endOnQueryTimeout(client);
    });
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      async migrate() {
        // A connection of its own, without the statement and query timeouts: a migration may rightly take long, and
        // so may waiting for the lock while another replica migrates.
        const client = new pg.Client({ ...connection, connectionString: options.ownerUrl ?? options.url });
        client.on('error', () => {});
        await client.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          try {
            await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: migrationsFolder() });
            const apiRole = decodeURIComponent(new URL(options.url!).username);
            const { rows } = await client.query<{ owner: string }>('select current_user as owner');
            // The owner keeps its rights: only another role is granted (and refused) what the API needs.
            if (options.ownerUrl && apiRole && apiRole !== rows[0]?.owner) await grantApiRole(client, apiRole);
          } finally {
            await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
          }
        } finally {
          await client.end();
        }
      },
      ping: () => ping(db),
      close: () => pool.end(),
    };
  }
  const client = new PGlite(options.pgliteDir ?? './data');
  await client.waitReady;
  return pgliteDatabase(client);
}

/**
 * What the API's own role may do, granted again after every migration (new tables included): read and write every
 * table but the audit trail, where it only inserts; the browser reports go through the owner's function.
 */
async function grantApiRole(client: pg.Client, role: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>('select quote_ident($1) as name', [role]);
  const name = rows[0]!.name;
  await client.query(`grant usage on schema public to ${name}`);
  await client.query(`grant select, insert, update, delete on all tables in schema public to ${name}`);
  await client.query(`grant usage, select on all sequences in schema public to ${name}`);
  await client.query(`revoke update, delete, truncate on audit_log from ${name}`);
  await client.query(`grant execute on function prune_browser_reports(integer) to ${name}`);
}

/**
 * Whether the API's role could change or empty the audit trail, by a privilege or by owning it (an owner may drop its
 * triggers): production refuses to start then (decision 042).
 */
export async function auditTrailChangeable(db: Db): Promise<boolean> {
  const { rows } = (await db.execute(
    sql`select has_table_privilege(current_user, 'audit_log', 'UPDATE') or has_table_privilege(current_user, 'audit_log', 'DELETE')
        or has_table_privilege(current_user, 'audit_log', 'TRUNCATE')
        or pg_has_role(current_user, (select tableowner from pg_tables where schemaname = 'public' and tablename = 'audit_log'), 'MEMBER') as changeable`,
  )) as unknown as { rows: { changeable: boolean }[] };
  return rows[0]?.changeable === true;
}

/** A database on an open PGlite instance (the tests' copies of a seeded one, too). */
export function pgliteDatabase(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() });
    },
    ping: () => ping(db),
    close: () => client.close(),
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
