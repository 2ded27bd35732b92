import { inArray } from 'drizzle-orm';
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { transactions } from '../../src/db/schema';
import { fromClient, startCluster, waitForPostings, waitForSettlement, type Cluster } from './cluster';
import { startHaCluster, haMissing, type HaCluster } from './ha-cluster';
import { counted, fetchTarget, jsonOf, type HttpRequest, type Target } from './http';
import { checkInvariants } from './ledger';
import { failover, histogram, planPayers, runPayer, unexpectedOutcomes, type PayerResult } from './load';
import { RELIABILITY, recordFigures, RequestTally } from './settings';

// PostgreSQL as a three-node cluster (Patroni, etcd, synchronous replication, HAProxy on the primary) under two API
// processes and concurrent payers by both paths, while the primary is killed (-9), then switched over on purpose,
// then a standby is lost. No payment the API acknowledged may be missing from the final primary, none applied twice
// or in part, and no answer is a 5xx other than the designed 503 with the envelope and Retry-After.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const skipReason = !process.env.DATABASE_URL ? 'DATABASE_URL is not set' : haMissing();
/** Payers per fault; `npm run test:ha` runs 200 in all. */
const PAYERS = RELIABILITY.haPayers;

describe.skipIf(skipReason !== null)(`PostgreSQL high availability under load${skipReason ? ` — skipped: ${skipReason}` : ''}`, () => {
  let ha: HaCluster | undefined;
  let c: Cluster | undefined;
  const tally = new RequestTally();
  let designed503 = 0;
  const other5xx: string[] = [];

  beforeAll(async () => {
    ha = await startHaCluster();
    // The API's own bounds, short: a connection to a node that is gone is given up on within seconds.
    c = await startCluster({ processes: 2, members: Math.max(8, Math.ceil(PAYERS / 4)), serverUrl: ha.url, env: { DB_CONNECT_TIMEOUT_MS: '2000' } });
    // The base backup the restore drill starts from; everything after it is in the archived WAL, across failovers.
    await ha.backup();
  }, 180_000);
  afterAll(async () => {
    // RELIABILITY_DUMP=path keeps Patroni's, etcd's and HAProxy's output for a post-mortem.
    if (process.env.RELIABILITY_DUMP && ha) appendFileSync(process.env.RELIABILITY_DUMP, ha.log());
    await c?.close().catch(() => undefined);
    await ha?.stop();
  });

  /**
   * Every 5xx is looked at: the designed one is 503 with the envelope's code 503 and Retry-After, and the member's
   * browser asks again a moment later (every call is safe to repeat), as the payers here do, up to ten times.
   */
  const watching = (inner: Target): Target => ({
    name: inner.name,
    async request(r: HttpRequest) {
      for (let attempt = 1; ; attempt++) {
        const res = await inner.request(r);
        if (res.status < 500) return res;
        const envelope = Object.values(jsonOfSafe(res.body))[0] as { error?: { errores?: { detalleError?: { codigo?: string } } } } | undefined;
        const designed = res.status === 503 && res.headers['retry-after'] !== undefined && envelope?.error?.errores?.detalleError?.codigo === '503';
        if (!designed) other5xx.push(`${r.method} ${r.url.split('?')[0]} → ${res.status} ${res.body.slice(0, 120)}`);
        else designed503++;
        if (!designed || attempt >= 10) return res;
        await sleep(1_000);
      }
    },
    forClient: (address) => watching(inner.forClient!(address)),
  });
  const target = () => watching(failover(c!.apis.map((a, i) => counted(fetchTarget(a.url, `api${i + 1}`, 30_000), tally))));

  /** Payers by both paths, each from an address of its own; resolves with their results. */
  let client = 0;
  const pay = (count: number, seed: number) => {
    const plans = planPayers(c!.members, count, seed);
    const first = client;
    client += count;
    return Promise.all(plans.map((plan, i) => runPayer(fromClient(target(), first + i), c!.simUrl, plan)));
  };
  /** Lets the payers get going before the fault, so that it lands on payments in flight. */
  const underWay = async () => {
    const before = tally.total;
    for (let i = 0; i < 100 && tally.total - before < PAYERS; i++) await sleep(50);
  };

  it('loses no acknowledged payment, applies none twice or in part, through a crash, a switchover and a lost standby', async () => {
    const started = Date.now();
    const results: PayerResult[] = [];
    const failovers: Record<string, number> = {};

    // 1. The primary's machine dies: Patroni and PostgreSQL killed with SIGKILL.
    let wave = pay(PAYERS, 901);
    await underWay();
    const dead = (await ha!.primary())!;
    let t0 = Date.now();
    ha!.kill(dead);
    await ha!.untilWritable(60_000);
    failovers.crash = Date.now() - t0;
    results.push(...(await wave));
    // It comes back as a replica (pg_rewind), so that the cluster has three nodes again.
    ha!.restart(dead);
    await ha!.untilFormed(60_000);

    // 2. A planned switchover to the synchronous standby.
    wave = pay(PAYERS, 902);
    await underWay();
    t0 = Date.now();
    await ha!.switchover();
    await ha!.untilWritable(60_000);
    failovers.switchover = Date.now() - t0;
    results.push(...(await wave));

    // 3. The synchronous standby dies: the other replica becomes synchronous and writes go on.
    await ha!.untilFormed(60_000);
    wave = pay(PAYERS, 903);
    await underWay();
    const roles = await ha!.roles();
    const standby = Object.entries(roles).find(([, r]) => r === 'sync_standby')?.[0];
    expect(standby, JSON.stringify(roles)).toBeDefined();
    t0 = Date.now();
    console.log(`ha: killing ${standby} at ${new Date(t0).toISOString()}`);
    ha!.kill(standby!);
    await ha!.untilWritable(60_000);
    failovers.standby = Date.now() - t0;
    results.push(...(await wave));

    // Card payments left on Webpay's form are settled by the processes' reconciliation.
    const left = await retrying(() => waitForSettlement(c!.db, 90_000));
    const postingsLeft = await retrying(() => waitForPostings(c!.db, 90_000));
    const report = await retrying(async () => checkInvariants(c!.db.db, c!.baseline, { provider: c!.store, noPendingCard: true, core: await c!.core.books(), noPendingPostings: true }));
    const acknowledged = results.filter((r) => (r.outcome === 'paid' || r.outcome === 'aprobado') && r.idTransaccion).map((r) => r.idTransaccion!);
    const onPrimary = acknowledged.length
      ? await retrying(() => c!.db.db.select({ id: transactions.idTransaccion, status: transactions.status }).from(transactions).where(inArray(transactions.idTransaccion, acknowledged)))
      : [];
    const lost = acknowledged.filter((id) => onPrimary.find((t) => t.id === id)?.status !== 'paid');
    const doubled = report.violations.filter((v) => /has [2-9]\d* vouchers|Webpay kept|Webpay charged|the core (debited|credited) \[\d+, /.test(v));
    const halfApplied = report.violations.filter((v) => !doubled.includes(v));
    const failoverMax = Math.max(...Object.values(failovers)) / 1000;
    const summary = `ha summary: acknowledged-lost ${lost.length}, doubled ${doubled.length}, half-applied ${halfApplied.length}, core postings left ${postingsLeft}, failover-max ${failoverMax.toFixed(1)} s, 5xx ${other5xx.length}`;
    console.log(summary);
    console.log(`ha detail: ${results.length} payers ${JSON.stringify(histogram(results))}; failovers ${JSON.stringify(failovers)} ms; 503 with Retry-After ${designed503}; roles now ${JSON.stringify(await ha!.roles())}`);
    recordFigures({
      section: 'faults',
      database: 'postgres (Patroni, 3 nodes)',
      faultsInjected: 3,
      requestsServed: tally.served,
      responses5xx: other5xx.length,
      paymentsPaid: acknowledged.length,
      invariantViolations: report.violations.length + lost.length,
      seconds: Math.round((Date.now() - started) / 1000),
      notes: summary,
    });

    expect(lost).toEqual([]);
    expect(report.violations).toEqual([]);
    expect(left).toBe(0);
    expect(postingsLeft).toBe(0);
    expect(other5xx).toEqual([]);
    expect(unexpectedOutcomes(results, true)).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(0);
    // Writes come back within seconds of each fault.
    expect(failoverMax).toBeLessThan(30);
  }, 600_000);

  it('restores the backup and the archived WAL to a point in time, with every payment acknowledged up to it and none after', async () => {
    const paidIn = async (wave: Promise<PayerResult[]>) =>
      (await wave).filter((r) => (r.outcome === 'paid' || r.outcome === 'aprobado') && r.idTransaccion).map((r) => r.idTransaccion!);
    const before = await paidIn(pay(PAYERS, 904));
    await sleep(1_500);
    const target = new Date();
    await sleep(1_500);
    const after = await paidIn(pay(PAYERS, 905));
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);

    const restored = await ha!.restoreTo(target);
    try {
      const url = new URL(restored.url);
      url.pathname = `/${c!.dbName}`;
      const db = await openDatabase({ url: url.toString(), poolMax: 2 });
      try {
        const rows = await db.db.select({ id: transactions.idTransaccion, status: transactions.status }).from(transactions).where(inArray(transactions.idTransaccion, [...before, ...after]));
        const status = new Map(rows.map((r) => [r.id, r.status]));
        expect(before.filter((id) => status.get(id) !== 'paid'), 'paid before the target, missing from the restore').toEqual([]);
        expect(after.filter((id) => status.has(id)), 'made after the target, present in the restore').toEqual([]);
        console.log(`ha restore: ${before.length} payments before the target all restored, ${after.length} after it absent`);
      } finally {
        await db.close();
      }
    } finally {
      if (process.env.RELIABILITY_DUMP) appendFileSync(process.env.RELIABILITY_DUMP, `\n---- restored server\n${restored.log()}`);
      await restored.stop();
    }
  }, 300_000);
});

function jsonOfSafe(body: string): Record<string, unknown> {
  try {
    return jsonOf({ status: 0, headers: {}, body, raw: Buffer.from(body) });
  } catch {
    return {};
  }
}

/** The test's own connection meets the failover too: a query that lands on it is asked again. */
async function retrying<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 20) throw error;
      await sleep(500);
    }
  }
}
