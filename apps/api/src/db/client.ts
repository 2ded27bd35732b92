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
  /** PGlite data directory, or 'memory://' for a throw-away database. */
  pgliteDir?: string;
  /** PostgreSQL pool size. */
  poolMax?: number;
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
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolMax ?? 10 });
    // An idle client that loses its server (a restart) must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    // Nor may a checked-out one: a client held by a transaction between two queries (while argon2 verifies, while
    // Webpay answers) emits 'error' when its connection drops, and with no listener that kills the process. The
    // query in flight, or the next one, fails on its own; the pool discards the broken client when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          try {
            await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: migrationsFolder() });
          } finally {
            await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
          }
        } finally {
          client.release();
        }
      },
      ping: () => ping(db),
      close: () => pool.end(),
    };
  }
  const client = new PGlite(options.pgliteDir ?? './data');
  await client.waitReady;
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
