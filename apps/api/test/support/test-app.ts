import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { businessNoon, businessToday } from '@pago/domain/business-time';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { buildApp } from '../../src/app';
import { settableClock, type Clock } from '../../src/clock';
import type { WebpayClient } from '../../src/services/webpay-client';
import { buildCoreSim } from '@pago/core-sim/app';
import type { DemoMember } from '@pago/domain/demo-members';
import type { CoreBanking } from '../../src/services/core-banking';
import { createFineractClient } from '../../src/services/fineract-client';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, pgliteDatabase, type Database, type Db } from '../../src/db/client';
import * as schema from '../../src/db/schema';
import { seedDemoMembers, seedParameters } from '../../src/db/seed';
import { createPostgresDatabase } from './scratch-database';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when DATABASE_URL is set (as in CI). */
export const DATABASE_KINDS: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

/** A second handle on the same database, with caches of its own (the parameters' cache): another replica. */
export function anotherReplica(kind: DatabaseKind, db: Db): Db {
  const client = (db as unknown as { $client: unknown }).$client;
  return (kind === 'pglite' ? drizzlePglite(client as PGlite, { schema }) : drizzleNodePg(client as pg.Pool, { schema })) as unknown as Db;
}

/**
 * A database of the test's own: PGlite in memory, or a fresh PostgreSQL database created for it and dropped after,
 * so no test sees another's rows.
 */
export async function openTestDatabase(kind: DatabaseKind, poolMax = 30): Promise<Database> {
  if (kind === 'pglite') {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    await database.migrate();
    return database;
  }
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('DATABASE_URL is required for PostgreSQL tests');
  const scratch = await createPostgresDatabase(baseUrl);
  const database = await openDatabase({ url: scratch.url, poolMax });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.remove();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}, rateLimits: Partial<Config['rateLimits']> = {}): Config {
  const base = loadConfig({
    NODE_ENV: 'test',
    SANDBOX: '1',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    // Tests make many calls from one address; the limits themselves have tests of their own.
    RATE_LIMIT_LISTAR_PER_IP: '10000',
    RATE_LIMIT_LISTAR_PER_RUT: '10000',
    RATE_LIMIT_LISTAR_RUT_CEILING: '10000',
    RATE_LIMIT_LOGIN_PER_IP: '10000',
    RATE_LIMIT_LOGIN_PER_PAYER: '10000',
    RATE_LIMIT_LOGIN_FAILED_PAYERS: '10000',
    RATE_LIMIT_PAY_PER_IP: '10000',
    RATE_LIMIT_MAIL_PER_SESSION: '10000',
    RATE_LIMIT_MAIL_PER_IP: '10000',
    RATE_LIMIT_PDF_PER_SESSION: '10000',
    RATE_LIMIT_PDF_PER_IP: '10000',
    RATE_LIMIT_SELECT_PER_SESSION: '10000',
    RATE_LIMIT_SELECT_PER_IP: '10000',
    RATE_LIMIT_LOG_PER_IP: '10000',
    RATE_LIMIT_ADMIN_PER_IP: '10000',
    RATE_LIMIT_CAPTCHA_PER_IP: '10000',
    RATE_LIMIT_AUTHORISER_PER_IP: '10000',
    RATE_LIMIT_RETURN_PER_IP: '10000',
    // Short, so that the many operator changes of the tests answer quickly; the cache works the same at any length.
    PARAMETERS_CACHE_MS: '20',
  });
  return { ...base, ...overrides, rateLimits: { ...base.rateLimits, ...rateLimits } };
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Database;
  /** The core simulator the app books in, seeded with the demo members on the app's business day. */
  core: CoreSimHandle;
  close(): Promise<void>;
}

export interface CoreSimHandle {
  /** The simulator's origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** The books as the simulator's read API gives them. */
  books(): Promise<CoreBooks>;
  /** Sets the simulator's fault switches (latencyMs, failNext, loseNext, reset). */
  faults(switches: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/** The core simulator's books as its read API (/__sim/books) gives them: what the tests and the ledger read. */
export interface CoreBooks {
  savings: { externalId: string; balance: number; transactions: { type: string; amount: number; reversed: boolean; receiptNumber?: string; transfer?: { transferId: number } }[] }[];
  loans: {
    externalId: string;
    periods: { period: number; totalOutstandingForPeriod: number }[];
    transactions: { amount: number; reversed: boolean; externalId?: string; receiptNumber?: string; transfer?: { transferId: number } }[];
  }[];
  transfers: { id: number; amount: number; description: string; reversed: boolean }[];
  /** Every write the simulator received; `note` says 'served from cache' for a repeat answered from its record. */
  writes: { idempotencyKey: string | null; path: string; statusCode: number; note?: string }[];
}

/** A core simulator of the test's own, listening on a free loopback port (Fineract's demo credentials unless given). */
export async function startCoreSim(
  today: string,
  options: { dataFile?: string; members?: readonly DemoMember[]; port?: number; username?: string; password?: string } = {},
): Promise<CoreSimHandle> {
  const { port = 0, ...simOptions } = options;
  const sim = buildCoreSim({ today, ...simOptions });
  const origin = await sim.listen({ host: '127.0.0.1', port });
  return {
    origin,
    books: async () => (await (await fetch(`${origin}/__sim/books`)).json()) as CoreBooks,
    async faults(switches) {
      const res = await fetch(`${origin}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(switches) });
      if (!res.ok) throw new Error(`core simulator faults: ${res.status}`);
    },
    // Closing twice (a test that stopped the core, then the app's close) closes once.
    close: (() => {
      let closing: Promise<void> | undefined;
      return () => (closing ??= sim.close());
    })(),
  };
}

/** The Fineract adapter pointed at a simulator, with short timeouts for tests. */
export function coreClientFor(origin: string, timeoutMs = 3_000): CoreBanking {
  return createFineractClient({ baseUrl: `${origin}/fineract-provider/api`, username: 'mifos', password: 'password', tenant: 'default', timeoutMs, webpayPaymentTypeId: 1, transferPaymentTypeId: 2 });
}

export { businessNoon };

export interface TestAppOptions {
  config?: Partial<Config>;
  rateLimits?: Partial<Config['rateLimits']>;
  /** Business time of the app and of the seed; defaults to today's business noon. */
  now?: Date;
  /** Webpay client; defaults to the SDK against the configured base URL. */
  webpay?: WebpayClient;
  /** The core; defaults to the Fineract adapter against the core simulator (coreSim). */
  core?: CoreBanking;
  /** A core simulator the test started (and closes) itself; else one of the app's own, closed with it. */
  coreSim?: CoreSimHandle;
  /** PostgreSQL's pool size (30 by default; production's is 10). */
  poolMax?: number;
}

/** The whole API on a seeded database of its own, driven through inject. */
export async function startTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp & { clock: Clock }> {
  const clock = settableClock(options.now ?? businessNoon());
  const database = await openTestDatabase(kind, options.poolMax);
  await seedParameters(database.db);
  await seedDemoMembers(database.db, clock());
  return startOn(database, clock, options);
}

async function startOn(database: Database, clock: Clock, options: TestAppOptions): Promise<TestApp & { clock: Clock }> {
  const core = options.coreSim ?? (await startCoreSim(businessToday(clock())));
  const app = await buildApp({
    config: testConfig(options.config, options.rateLimits),
    database,
    clock,
    core: options.core ?? coreClientFor(core.origin),
    ...(options.webpay ? { webpay: options.webpay } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    core,
    clock,
    async close() {
      await app.close();
      if (!options.coreSim) await core.close();
      await database.close();
    },
  };
}

export interface SeededSnapshot {
  /** The API on a copy of the seeded database: what one test writes, no other test sees. */
  start(options?: Omit<TestAppOptions, 'now'>): Promise<TestApp & { clock: Clock }>;
  close(): Promise<void>;
}

/**
 * Each test of the calling describe on its own copy of the seeded members (seededSnapshot, below): registers the
 * hooks, and answers the running test's app, database and clock.
 */
export function appPerTest(kind: DatabaseKind, options: Omit<TestAppOptions, 'now'> = {}): TestApp & { clock: Clock } {
  let seeded: SeededSnapshot | undefined;
  let running: (TestApp & { clock: Clock }) | undefined;
  beforeAll(async () => {
    seeded = await seededSnapshot(kind);
  });
  afterAll(async () => {
    await seeded?.close();
  });
  beforeEach(async () => {
    running = await seeded!.start(options);
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  const current = () => {
    if (!running) throw new Error('no test is running');
    return running;
  };
  return {
    get app() {
      return current().app;
    },
    get database() {
      return current().database;
    },
    get core() {
      return current().core;
    },
    get clock() {
      return current().clock;
    },
    close: () => current().close(),
  };
}

/**
 * The demo members seeded once (per file, in beforeAll) on the business day of `now`; each test then starts on a copy
 * of it (in beforeEach), so a test that fails half-way leaves nothing behind for the next one. A copy costs a PGlite
 * clone or a PostgreSQL `create database … template`, far less than migrating and seeding again.
 */
export async function seededSnapshot(kind: DatabaseKind, now: Date = businessNoon()): Promise<SeededSnapshot> {
  const seed = async (database: Database) => {
    await database.migrate();
    await seedParameters(database.db);
    await seedDemoMembers(database.db, now);
  };
  if (kind === 'pglite') {
    const original = await openDatabase({ pgliteDir: 'memory://' });
    await seed(original);
    const client = (original.db as unknown as { $client: PGlite }).$client;
    return {
      start: async (options = {}) => startOn(pgliteDatabase((await client.clone()) as PGlite), settableClock(now), options),
      close: () => original.close(),
    };
  }
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('DATABASE_URL is required for PostgreSQL tests');
  const template = await createPostgresDatabase(baseUrl, 'pago_template');
  const seeding = await openDatabase({ url: template.url });
  await seed(seeding);
  // A template must have no connections when it is copied.
  await seeding.close();
  return {
    async start(options = {}) {
      const scratch = await createPostgresDatabase(baseUrl, 'pago_test', template.name);
      const database = await openDatabase({ url: scratch.url, poolMax: 30 });
      return startOn({ ...database, close: async () => (await database.close(), await scratch.remove()) }, settableClock(now), options);
    },
    close: () => template.remove(),
  };
}
