import { businessToday } from '@pago/domain/business-time';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { shiftedClock } from '../clock';
import type { Database } from '../db/client';
import { seedDemoMembers, seedParameters } from '../db/seed';
import { createWebpayClient } from '../services/webpay-client';
import { businessNoon, DATABASE_KINDS, openTestDatabase, testConfig } from '../test/test-app';
import { personalDataIn, fromClient, startCluster, transactionStates, waitForSettlement, type Cluster } from './cluster';
import { insertLoadMembers, type LoadMember } from './fixtures';
import { counted, fetchTarget, injectTarget, roundRobin, type Target } from './http';
import { captureLedger, checkInvariants, type LedgerSnapshot } from './ledger';
import { histogram, isExpected, planPayers, runPayer } from './load';
import { RELIABILITY, recordFigures, RequestTally } from './settings';

// Part 3: many payers at once over shared instalments and accounts, by the own account (coordinates) and by card
// (Webpay's form), on two API processes sharing one PostgreSQL (and on one app over PGlite). Afterwards no money
// is lost or doubled, no instalment is paid twice, no account is negative, every transaction is pending or final
// and every paid one has exactly one voucher.

const PAYERS = RELIABILITY.payers;
const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

interface Setup {
  target: Target;
  database: Database;
  members: LoadMember[];
  store: SimStore;
  simUrl: string;
  baseline: LedgerSnapshot;
  /** Lets card payments left on the form be settled by the reconciliation; answers how many are still pending. */
  settle(): Promise<number>;
  output(): string;
  close(): Promise<void>;
}

/** PGlite: one app in this process (PGlite is one process's database). */
async function inProcess(members: number): Promise<Setup> {
  const store = new SimStore();
  const sim: FastifyInstance = buildSimulator({ publicUrl: 'http://sim.test', store });
  const simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
  const clock = shiftedClock(businessNoon());
  const database = await openTestDatabase('pglite');
  await seedParameters(database.db);
  await seedDemoMembers(database.db, clock());
  const loadMembers = await insertLoadMembers(database.db, members, businessToday(clock()));
  const base = testConfig({ altchaCounter: { min: 10, max: 50 } });
  const app = await buildApp({
    config: { ...base, webpay: { ...base.webpay, settleAfterSeconds: 0, reconcileIntervalSeconds: 0 } },
    database,
    clock,
    webpay: createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 }),
  });
  await app.ready();
  return {
    target: injectTarget(app),
    database,
    members: loadMembers,
    store,
    simUrl,
    baseline: await captureLedger(database.db),
    async settle() {
      for (let i = 0; i < 50; i++) if ((await app.services.card.reconcileOnce()).backlog === 0) return 0;
      return (await app.services.card.reconcileOnce()).backlog;
    },
    output: () => '',
    async close() {
      await app.close();
      await database.close();
      await sim.close();
    },
  };
}

/** PostgreSQL: two processes of the production bundle, the browser's requests spread over both. */
async function twoProcesses(members: number): Promise<Setup & { cluster: Cluster }> {
  // Webpay's timeout at the SDK's usual seconds: here the simulator shares a busy test process with 200 browsers,
  // and a slow Webpay is the faults test's business, not this one's.
  // Forms left open are settled 4 s after they opened (instead of minutes), so the test need not wait long.
  const cluster = await startCluster({ processes: 2, members, env: { WEBPAY_TIMEOUT_MS: '10000', WEBPAY_SETTLE_AFTER_SECONDS: '4' } });
  return {
    cluster,
    target: roundRobin(cluster.apis.map((a, i) => fetchTarget(a.url, `api${i + 1}`))),
    database: cluster.db,
    members: cluster.members,
    store: cluster.store,
    simUrl: cluster.simUrl,
    baseline: cluster.baseline,
    // The processes' own timers reconcile (every second, for payments older than the form's lifetime here).
    settle: () => waitForSettlement(cluster.db, 60_000),
    output: cluster.output,
    close: cluster.close,
  };
}

describe.each(DATABASE_KINDS)('concurrent payers on %s', (kind) => {
  let s: Setup;
  const tally = new RequestTally();
  beforeAll(async () => {
    const members = Math.max(4, Math.ceil(PAYERS / 5));
    s = kind === 'postgres' ? await twoProcesses(members) : await inProcess(members);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it(`${PAYERS} payers over shared instalments and accounts, by own account and by card: no money lost or doubled`, async () => {
    const started = Date.now();
    const plans = planPayers(s.members, PAYERS, kind === 'postgres' ? 7 : 3);
    const results = await Promise.all(plans.map((plan, i) => runPayer(fromClient(counted(s.target, tally), i), s.simUrl, plan)));
    const loadSeconds = (Date.now() - started) / 1000;
    const left = await s.settle();
    const report = await checkInvariants(s.database.db, s.baseline, { provider: s.store, noPendingCard: true });
    const unexpected = results.filter((r) => !isExpected(r));
    const outcomes = histogram(results);
    const paid = results.filter((r) => r.outcome === 'paid' || r.outcome === 'aprobado').length;
    const leaked = personalDataIn(s.output(), s.members);
    recordFigures({
      section: 'concurrency',
      database: kind === 'postgres' ? 'postgres (2 processes)' : 'pglite (1 app)',
      requestsServed: tally.served,
      responses5xx: tally.errors5xx,
      paymentsPaid: paid,
      invariantViolations: report.violations.length + unexpected.length + leaked.length,
      seconds: Math.round(loadSeconds),
      notes: `${PAYERS} payers, ${s.members.length} members; ${JSON.stringify(await transactionStates(s.database))}; p50 ${tally.percentile(50)} ms, p99 ${tally.percentile(99)} ms`,
    });
    if (process.env.RELIABILITY_VERBOSE) console.log(kind, outcomes, report.totals, tally.byClass);

    expect(unexpected.map((r) => `${r.plan.method}→${r.outcome}`), JSON.stringify(outcomes)).toEqual([]);
    expect(left).toBe(0);
    expect(report.violations).toEqual([]);
    expect(tally.errors5xx).toBe(0);
    expect(leaked).toEqual([]);
    // Both paths really paid something, and the races really happened (someone found an instalment already paid).
    expect(results.some((r) => r.outcome === 'paid')).toBe(true);
    expect(results.some((r) => r.outcome === 'aprobado')).toBe(true);
    expect(report.totals.paid).toBeGreaterThan(0);
    expect(report.charged).toBe(report.totals.paidByCard - s.baseline.totals.paidByCard);
  }, 240_000 + PAYERS * 1_000);
});
