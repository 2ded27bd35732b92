import { businessToday } from '@pago/domain/business-time';
import { formatRut } from '@pago/domain/rut';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { openDatabase, type Database } from '../../src/db/client';
import { coreOperations, webpayAttempts } from '../../src/db/schema';
import { seedDemoMembers, seedParameters } from '../../src/db/seed';
import { businessNoon, startCoreSim, TEST_ADMIN_TOKEN, type CoreSimHandle } from '../support/test-app';
import { insertLoadMembers, LOAD_PASSWORD, loadMemberProfiles, type LoadMember } from './fixtures';
import type { Target } from './http';
import { captureLedger, type LedgerSnapshot } from './ledger';
import { createPostgresDatabase } from '../support/scratch-database';
import { bundleApi, FaultyProxy, startApiProcess, type ApiProcess } from './processes';

// Several API processes of the production bundle on one fresh PostgreSQL database, the Webpay simulator (its
// books readable) behind a proxy that can slow or cut it, and optionally PostgreSQL behind one too.

export interface Cluster {
  /** The test's own connection, straight to the database (never through the faulty proxy). */
  db: Database;
  dbName: string;
  members: LoadMember[];
  store: SimStore;
  /** Where the member's browser reaches Webpay's form. */
  simUrl: string;
  /** Where the API processes reach Webpay. */
  simProxy: FaultyProxy;
  /** Where the API processes reach PostgreSQL, when asked for. */
  pgProxy: FaultyProxy | null;
  /** The core banking simulator the processes book in. */
  core: CoreSimHandle;
  apis: ApiProcess[];
  baseline: LedgerSnapshot;
  /** Everything every API process wrote. */
  output(): string;
  close(): Promise<void>;
}

export interface ClusterOptions {
  processes: number;
  members: number;
  viaPgProxy?: boolean;
  /** The PostgreSQL server to create the database on, instead of DATABASE_URL's (a private one the test restarts). */
  serverUrl?: string;
  env?: Record<string, string>;
}

export const WEBPAY_TIMEOUT_MS = 1_500;
export const SETTLE_AFTER_SECONDS = 10;
/** How long a replica serves the parameters from memory (a database outage shows in call 1 once it has passed). */
export const PARAMETERS_CACHE_MS = 500;

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const baseUrl = options.serverUrl ?? process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('DATABASE_URL is required');
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    const bundle = await bundleApi();
    cleanups.push(bundle.remove);
    const pg = await createPostgresDatabase(baseUrl, 'pago_rel');
    cleanups.push(pg.remove);
    const db = await openDatabase({ url: pg.url, poolMax: 5 });
    cleanups.push(() => db.close());
    const noon = businessNoon();
    await db.migrate();
    await seedParameters(db.db);
    await seedDemoMembers(db.db, noon);
    const members = await insertLoadMembers(db.db, options.members, businessToday(noon));
    // The core holds the same members: own-account payments are booked there, card credits posted there.
    const core = await startCoreSim(businessToday(noon), { members: loadMemberProfiles(options.members) });
    cleanups.push(() => core.close());

    const store = new SimStore();
    const sim: FastifyInstance = buildSimulator({ publicUrl: 'http://sim.test', store });
    const simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => sim.close());
    const simProxy = new FaultyProxy('127.0.0.1', Number(new URL(simUrl).port));
    await simProxy.listen();
    cleanups.push(() => simProxy.close());

    let databaseUrl = pg.url;
    let pgProxy: FaultyProxy | null = null;
    if (options.viaPgProxy) {
      const target = new URL(pg.url);
      pgProxy = new FaultyProxy(target.hostname, Number(target.port || 5432));
      await pgProxy.listen();
      cleanups.push(() => pgProxy!.close());
      target.hostname = '127.0.0.1';
      target.port = String(pgProxy.port);
      databaseUrl = target.toString();
    }

    const env = {
      DATABASE_URL: databaseUrl,
      SANDBOX: '1',
      SEED_DEMO: '0',
      SANDBOX_CLOCK: noon.toISOString(),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      WEBPAY_BASE_URL: simProxy.url,
      CORE_BASE_URL: `${core.origin}/fineract-provider/api`,
      CORE_POST_INTERVAL_SECONDS: '1',
      // A debit left without an answer is taken up by the jobs after about ten seconds, not half a minute.
      CORE_TIMEOUT_MS: '2000',
      WEBPAY_TIMEOUT_MS: String(WEBPAY_TIMEOUT_MS),
      WEBPAY_SETTLE_AFTER_SECONDS: String(SETTLE_AFTER_SECONDS),
      RECONCILE_INTERVAL_SECONDS: '1',
      PARAMETERS_CACHE_MS: String(PARAMETERS_CACHE_MS),
      RATE_LIMIT_LISTAR_PER_IP: '1000000',
      RATE_LIMIT_LISTAR_PER_RUT: '1000000',
      RATE_LIMIT_LISTAR_RUT_CEILING: '1000000',
      RATE_LIMIT_LOGIN_PER_IP: '1000000',
      RATE_LIMIT_LOGIN_PER_PAYER: '1000000',
      RATE_LIMIT_LOGIN_FAILED_PAYERS: '1000000',
      RATE_LIMIT_PAY_PER_IP: '1000000',
      RATE_LIMIT_MAIL_PER_SESSION: '1000000',
      RATE_LIMIT_MAIL_PER_IP: '1000000',
      RATE_LIMIT_PDF_PER_SESSION: '1000000',
      RATE_LIMIT_PDF_PER_IP: '1000000',
      RATE_LIMIT_SELECT_PER_SESSION: '1000000',
      RATE_LIMIT_SELECT_PER_IP: '1000000',
      RATE_LIMIT_LOG_PER_IP: '1000000',
      RATE_LIMIT_ADMIN_PER_IP: '1000000',
      RATE_LIMIT_RETURN_PER_IP: '1000000',
      // Every replica must verify the others' captchas.
      ALTCHA_HMAC_SECRET: randomBytes(24).toString('hex'),
      ALTCHA_COUNTER_MIN: '10',
      ALTCHA_COUNTER_MAX: '50',
      ...options.env,
    };
    const apis: ApiProcess[] = [];
    for (let i = 0; i < options.processes; i++) {
      const api = await startApiProcess(bundle.script, env);
      apis.push(api);
      cleanups.push(() => api.stop());
    }
    const baseline = await captureLedger(db.db);
    return {
      db,
      dbName: pg.name,
      members,
      store,
      simUrl,
      simProxy,
      pgProxy,
      core,
      apis,
      baseline,
      output: () => apis.map((a) => a.output()).join(''),
      async close() {
        // RELIABILITY_DUMP=path keeps the processes' output for a post-mortem.
        if (process.env.RELIABILITY_DUMP) appendFileSync(process.env.RELIABILITY_DUMP, apis.map((a) => a.output()).join('\n----\n'));
        for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
      },
    };
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
    throw error;
  }
}

/**
 * Each payer comes from an address of its own (a loopback address of 127.0.0.0/8 on the wire, the inject's
 * remoteAddress in process), so the per-address limits count per payer, as for members on their own networks.
 */
export function fromClient(target: Target, index: number): Target {
  const address = `127.0.${1 + Math.floor(index / 250)}.${(index % 250) + 1}`;
  return target.forClient ? target.forClient(address) : target;
}

/** Waits until no card payment is pending at Webpay (the reconciliation settled them); answers how many are left. */
export async function waitForSettlement(db: Database, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await db.db.$count(webpayAttempts, eq(webpayAttempts.status, 'pending'));
    if (pending === 0 || Date.now() > deadline) return pending;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Waits until the core has acknowledged every posting (the processes' core-postings job delivers them); answers how
 * many are left. Back-offs are brought forward first, as the 30 s between two questions to Webpay are.
 */
export async function waitForPostings(db: Database, timeoutMs: number): Promise<number> {
  await db.db.update(coreOperations).set({ nextAttemptAt: sql`now()` }).where(eq(coreOperations.status, 'pending'));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await db.db.$count(coreOperations, eq(coreOperations.status, 'pending'));
    if (pending === 0 || Date.now() > deadline) return pending;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Personal data of the load members found in a text (process logs): none is the only good answer. */
export function personalDataIn(text: string, members: LoadMember[]): string[] {
  const found = new Set<string>();
  if (text.includes(LOAD_PASSWORD)) found.add('password');
  for (const m of members) {
    // The canonical and the dotted spellings (logs.test.ts looks for every spelling of one distinctive RUT).
    if (text.includes(m.rut) || text.includes(formatRut(m.rut))) found.add(`RUT of ${m.rut.slice(-5)}`);
    if (text.includes(m.email)) found.add('e-mail');
  }
  return [...found];
}

/** Counts the transactions by state. */
export async function transactionStates(db: Database): Promise<Record<string, number>> {
  const result = (await db.db.execute(sql`select status, count(*)::int as n from transactions group by status`)) as unknown as { rows: { status: string; n: number }[] };
  return Object.fromEntries(result.rows.map((r) => [r.status, Number(r.n)]));
}
