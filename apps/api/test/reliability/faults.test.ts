import { errorDetail } from '@pago/domain/errors';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromClient, personalDataIn, startCluster, transactionStates, waitForPostings, waitForSettlement, WEBPAY_TIMEOUT_MS, PARAMETERS_CACHE_MS, type Cluster } from './cluster';
import { codeOf } from './flows';
import { counted, fetchTarget, jsonOf, type HttpRequest, type HttpResponse, type Target } from './http';
import { checkInvariants } from './ledger';
import { transactions, webpayAttempts } from '../../src/db/schema';
import { failover, histogram, unexpectedOutcomes, planPayers, runPayer, type PayerPlan } from './load';
import { terminateBackends } from './processes';
import { RELIABILITY, recordFigures, RequestTally } from './settings';

// Part 4: faults under load, on two API processes of the production bundle sharing one PostgreSQL.
//  - An API process killed with SIGKILL in the middle of payments, then restarted: every transaction is paid or
//    still pending (or closed), never half-applied; the money invariant holds.
//  - PostgreSQL unreachable (its connections cut and refused by a proxy, or terminated by the server): requests fail
//    fast with the envelope (503), nothing hangs, and the service recovers by itself.
//  - Webpay slow or down: the card path answers the generic failure or 'pendiente', and the reconciliation settles
//    every payment once Webpay is back.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


describe.skipIf(!process.env.DATABASE_URL)('faults under load on PostgreSQL (two API processes)', () => {
  let c: Cluster;
  let faults = 0;
  const tally = new RequestTally();
  const started = Date.now();
  const notes: string[] = [];
  /** Every 5xx answer seen: each must be the catalogue envelope. */
  const fiveHundreds: HttpResponse[] = [];
  let seed = 100;

  beforeAll(async () => {
    c = await startCluster({ processes: 2, members: Math.max(6, Math.ceil(RELIABILITY.killPayers / 3)), viaPgProxy: true });
  }, 120_000);

  afterAll(async () => {
    recordFigures({
      section: 'faults',
      database: 'postgres (2 processes)',
      faultsInjected: faults,
      requestsServed: tally.served,
      responses5xx: tally.errors5xx,
      paymentsPaid: paid,
      seconds: Math.round((Date.now() - started) / 1000),
      notes: notes.join('; '),
    });
    await c?.close();
  });

  /** The API processes as a load balancer sees them, every answer counted and every 5xx kept for inspection. */
  const inflight: number[] = [];
  /** One API process, counting the requests it holds right now. */
  const tracked = (direct: Target, i: number): Target => ({
    name: direct.name,
    async request(r: HttpRequest) {
      inflight[i] = (inflight[i] ?? 0) + 1;
      try {
        return await direct.request(r);
      } finally {
        inflight[i]!--;
      }
    },
    forClient: (address) => tracked(direct.forClient!(address), i),
  });
  /** Keeps every 5xx answer for inspection. */
  const keeping5xx = (inner: Target): Target => ({
    name: 'cluster',
    async request(r: HttpRequest) {
      const res = await inner.request(r);
      if (res.status >= 500) fiveHundreds.push(res);
      return res;
    },
    forClient: (address) => keeping5xx(inner.forClient!(address)),
  });
  function cluster(): Target {
    return keeping5xx(counted(failover(c.apis.map((a, i) => tracked(fetchTarget(a.url, `api${i + 1}`, 20_000), i))), tally));
  }
  let paid = 0;
  const pay = async (plans: PayerPlan[]) => {
    const results = await Promise.all(plans.map((plan, i) => runPayer(fromClient(cluster(), i), c.simUrl, plan)));
    paid += results.filter((r) => r.outcome === 'paid' || r.outcome === 'aprobado').length;
    return results;
  };

  it('survives API processes killed with SIGKILL in the middle of payments', async () => {
    const busy: number[] = [];
    for (let round = 0; round < RELIABILITY.killRounds; round++) {
      const index = round % c.apis.length;
      const victim = c.apis[index]!;
      const endedBefore = tally.total;
      const running = pay(planPayers(c.members, RELIABILITY.killPayers, seed++));
      // Each round kills at another point of its payments, counted in requests ended rather than waited out by the clock:
      // on a fast machine a whole round's payments end within a second, and a fixed wait then met no work at all. The
      // payers may also still be solving captchas (the test's own CPU): the kill then waits for work on the victim.
      const killAfter = Math.ceil(RELIABILITY.killPayers * (0.5 + (round % 4) * 0.5));
      const busyBy = Date.now() + 10_000;
      while ((tally.total - endedBefore < killAfter || (inflight[index] ?? 0) === 0) && Date.now() < busyBy) await sleep(5);
      busy.push(inflight[index] ?? 0);
      await victim.kill();
      faults++;
      const results = await running;
      await victim.restart();
      // The process was really busy with payments when it died: its peers had to take over.
      expect(unexpectedOutcomes(results, true), JSON.stringify(histogram(results))).toEqual([]);
    }
    expect(await waitForSettlement(c.db, 90_000)).toBe(0);
    expect(await waitForPostings(c.db, 90_000)).toBe(0);
    const report = await checkInvariants(c.db.db, c.baseline, { provider: c.store, noPendingCard: true, core: await c.core.books(), noPendingPostings: true });
    expect(report.violations).toEqual([]);
    // Every kill landed on a process with requests in flight.
    expect(busy.every((n) => n > 0), `requests in flight at each kill: ${busy.join(', ')}`).toBe(true);
    notes.push(`${RELIABILITY.killRounds} SIGKILL rounds with ${busy.join('/')} requests in flight on the victim; transactions ${JSON.stringify(await transactionStates(c.db))}`);
  }, 120_000 + RELIABILITY.killRounds * 60_000);

  it('fails fast with the envelope while PostgreSQL is unreachable, and recovers by itself', async () => {
    const outage = RELIABILITY.outageSeconds * 1000;
    const running = pay(planPayers(c.members, RELIABILITY.killPayers, seed++));
    await sleep(200);
    c.pgProxy!.cut();
    const cutAt = Date.now();
    faults++;
    // While it is down: the process is alive and says so, the readiness probe says the database is not.
    const health = await fetch(`${c.apis[0]!.url}/health`, { signal: AbortSignal.timeout(5_000) });
    const ready = await fetch(`${c.apis[0]!.url}/ready`, { signal: AbortSignal.timeout(10_000) });
    // Call 1 serves the parameters from memory until the replica's cache time ends; after that it needs the database.
    await sleep(Math.max(0, PARAMETERS_CACHE_MS + 100 - (Date.now() - cutAt)));
    const t0 = Date.now();
    const during = await cluster().request({ method: 'POST', url: '/prod/parametro/consultar', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ consultarParametrosRequest: { userId: 'x', canalLlamada: 'PGEX', tipo: 'PE' } }) });
    const answeredIn = Date.now() - t0;
    await sleep(outage);
    c.pgProxy!.heal();
    const results = await running;
    expect(health.status).toBe(200);
    expect(ready.status).toBe(503);
    expect([during.status, codeOf(during, 'consultarParametrosResponse')]).toEqual([503, '503']);
    expect(answeredIn).toBeLessThan(5_000);
    expect(unexpectedOutcomes(results, true), JSON.stringify(histogram(results))).toEqual([]);

    // pg_terminate_backend of every connection of the app's database, under load.
    const again = pay(planPayers(c.members, RELIABILITY.killPayers, seed++));
    await sleep(300);
    const terminated = await terminateBackends(process.env.DATABASE_URL!, c.dbName);
    faults++;
    const afterTerminate = await again;
    expect(unexpectedOutcomes(afterTerminate, true), JSON.stringify(histogram(afterTerminate))).toEqual([]);

    // Recovered by itself: with the database back, payers pay as if nothing happened.
    const after = await pay(planPayers(c.members, 8, seed++));
    expect(unexpectedOutcomes(after, false), JSON.stringify(histogram(after))).toEqual([]);
    expect((await fetch(`${c.apis[0]!.url}/ready`)).status).toBe(200);
    // Every 5xx was the envelope: 503 with the catalogue's message, nothing else.
    const shapes = new Set(fiveHundreds.map((r) => `${r.status} ${JSON.stringify(Object.values(jsonOf<Record<string, unknown>>(r))[0])}`));
    expect([...shapes].every((s) => s.startsWith('503 ') && s.includes(errorDetail('503').descripcion)), [...shapes].join('\n')).toBe(true);
    const slowest = tally.slowest;
    expect(slowest).toBeLessThan(15_000);
    notes.push(`database cut for ${RELIABILITY.outageSeconds}s and ${terminated} backends terminated: ${fiveHundreds.length} answers 503, slowest answer ${slowest} ms`);
  }, 180_000);

  it('answers the generic failure while Webpay is slow or down, and settles every card payment once it is back', async () => {
    const cardPlans = (n: number, method: PayerPlan['method']) => planPayers(c.members, n, seed++).map((p) => ({ ...p, method, repeats: 0 }));
    const target = cluster();
    const payers = (plans: PayerPlan[]) => Promise.all(plans.map((plan, i) => runPayer(fromClient(target, 1_000 + seed * 10 + i), c.simUrl, plan)));
    // The short run (npm test) cuts Webpay off; the full run also makes it slower than the client's timeout.
    for (const fault of RELIABILITY.full ? (['slow', 'down'] as const) : (['down'] as const)) {
      // Payers who are on Webpay's form when the fault starts: they have paid there, their return comes during it.
      const onTheForm = (await payers(cardPlans(6, 'card-abandon'))).filter((r) => r.returnFields);
      if (fault === 'slow') c.simProxy.delayMs = WEBPAY_TIMEOUT_MS + 1_000;
      else c.simProxy.cut();
      faults++;
      // New card payments cannot start: the payment host answers the generic failure (503), quickly.
      const starting = await payers(cardPlans(4, 'card'));
      expect(starting.map((r) => r.outcome).filter((o) => o !== 'initMall:503' && !o.startsWith('seleccionar:') && o !== 'nothing-to-pay')).toEqual([]);
      expect(Math.max(...starting.map((r) => r.ms))).toBeLessThan(20_000);
      // The returns of those on the form: Webpay's commit gets no answer, so the member sees 'pendiente'.
      const estados = await Promise.all(onTheForm.map((r) => target.request({ method: 'POST', url: '/api/pagoexpress/webpay/return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(r.returnFields!).toString() })));
      expect(estados.map((r) => new URL(r.headers.location ?? '', 'http://x').searchParams.get('estado'))).toEqual(onTheForm.map(() => 'pendiente'));
      await sleep(RELIABILITY.outageSeconds * 1000);
      c.simProxy.heal();
      // The full run waits out the 30 s the service leaves between two questions to Webpay about one payment; the
      // short run clears that mark, as if the 30 s had passed.
      if (!RELIABILITY.full) await c.db.db.update(webpayAttempts).set({ checkedAt: null }).where(eq(webpayAttempts.status, 'pending'));
      // Back: the reconciliation (every process, every second) settles each one, once.
      expect(await waitForSettlement(c.db, 90_000)).toBe(0);
      const ids = onTheForm.map((r) => r.idTransaccion!);
      const settled = await c.db.db.select({ status: transactions.status }).from(transactions).where(inArray(transactions.idTransaccion, ids));
      // Paid; or, if someone paid those instalments meanwhile, closed with the money given back (the invariant says so).
      expect(settled.map((s) => s.status).filter((s) => s !== 'paid' && s !== 'rejected')).toEqual([]);
      expect(settled.filter((s) => s.status === 'paid').length).toBeGreaterThan(0);
      notes.push(`Webpay ${fault}: ${starting.length} new card payments refused with 503, ${onTheForm.length} returns left pending and then settled`);
    }
    expect(await waitForPostings(c.db, 90_000)).toBe(0);
    const report = await checkInvariants(c.db.db, c.baseline, { provider: c.store, noPendingCard: true, core: await c.core.books(), noPendingPostings: true });
    expect(report.violations).toEqual([]);
  }, 240_000);

  it('kept every personal datum out of the processes’ logs through all of it', () => {
    expect(personalDataIn(c.output(), c.members)).toEqual([]);
    expect(c.output()).toContain('database unavailable');
  });
});
