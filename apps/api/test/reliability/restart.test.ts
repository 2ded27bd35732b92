import { errorDetail } from '@pago/domain/errors';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions, webpayAttempts } from '../../src/db/schema';
import { fromClient, personalDataIn, startCluster, waitForPostings, waitForSettlement, PARAMETERS_CACHE_MS, type Cluster } from './cluster';
import { counted, fetchTarget, jsonOf, type HttpRequest, type HttpResponse, type Target } from './http';
import { checkInvariants } from './ledger';
import { failover, histogram, planPayers, runPayer, unexpectedOutcomes, type PayerPlan, type PayerResult } from './load';
import { postgresBinaries, startPrivatePostgres, type PrivatePostgres, type ShutdownMode } from './postgres-server';
import { RELIABILITY, recordFigures, RequestTally } from './settings';

// Part 4, PostgreSQL really restarted under load, not imitated by a proxy: a fast restart (sessions ended, open
// transactions rolled back, a checkpoint), a crash restart (no checkpoint, the WAL replayed on start), and the server
// kept down for a while. The two API processes run with production's timeouts and are never restarted: requests
// fail fast with 503 and the envelope, and the service comes back by itself once the server does. The server is a
// private one (postgres-server.ts): the shared one on DATABASE_URL serves the test files running in parallel.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const binaries = postgresBinaries();
// Only where the other process tests run (CI sets DATABASE_URL), and only where a server can be started.
const skipReason = !process.env.DATABASE_URL ? 'DATABASE_URL is not set' : 'missing' in binaries ? binaries.missing : null;

interface Fault {
  mode: ShutdownMode;
  /** 0: pg_ctl restart; otherwise stopped, and started again this long after. */
  downMs: number;
}

const outageMs = RELIABILITY.outageSeconds * 1000;
const FAULTS: Fault[] = [
  { mode: 'fast', downMs: 0 },
  { mode: 'immediate', downMs: 0 },
  { mode: 'fast', downMs: outageMs },
  ...(RELIABILITY.full ? [{ mode: 'immediate' as const, downMs: outageMs }] : []),
];

/** Well under the request's own bound (30 s): a hang would go past it. */
const SLOWEST_MS = 15_000;
/** How long after the server accepts connections again a request may still meet the fault. */
const BACK_GRACE_MS = 1_000;
const READY_WITHIN_MS = 20_000;
/** A call while the server is down is refused by the kernel at once: the answer must not wait for any timeout. */
const FAIL_FAST_MS = 5_000;

describe.skipIf(skipReason !== null)(`PostgreSQL really restarted under load (a private server, two API processes)${skipReason ? ` — skipped: ${skipReason}` : ''}`, () => {
  let server: PrivatePostgres | undefined;
  let c: Cluster | undefined;
  const tally = new RequestTally();
  const started = Date.now();
  const fiveHundreds: HttpResponse[] = [];
  /** When each 5xx was asked and answered. */
  const fiveHundredsAt: { sent: number; answered: number }[] = [];
  /** From the fault's start until the server accepted connections again. */
  const windows: { from: number; to: number }[] = [];
  const notes: string[] = [];
  let faults = 0;
  let paid = 0;
  let violations = 0;
  let inflight = 0;

  beforeAll(async () => {
    server = await startPrivatePostgres((binaries as { bin: string }).bin);
    c = await startCluster({ processes: 2, members: Math.max(6, Math.ceil(RELIABILITY.killPayers / 3)), serverUrl: server.url });
  }, 120_000);

  afterAll(async () => {
    recordFigures({
      section: 'faults',
      database: 'postgres (real restart)',
      faultsInjected: faults,
      requestsServed: tally.served,
      responses5xx: tally.errors5xx,
      paymentsPaid: paid,
      invariantViolations: violations,
      seconds: Math.round((Date.now() - started) / 1000),
      notes: notes.join('; '),
    });
    // The database is dropped while the server still runs; then the server and its files go, whatever happened.
    await c?.close().catch(() => undefined);
    await server?.remove();
  });

  const keeping5xx = (inner: Target): Target => ({
    name: inner.name,
    async request(r: HttpRequest) {
      inflight++;
      const sent = Date.now();
      try {
        const res = await inner.request(r);
        if (res.status >= 500) {
          fiveHundreds.push(res);
          fiveHundredsAt.push({ sent, answered: Date.now() });
        }
        return res;
      } finally {
        inflight--;
      }
    },
    forClient: (address) => keeping5xx(inner.forClient!(address)),
  });
  // Each attempt is counted, not only what the failover finally answers: no process is killed here, so a request
  // with no answer (a hang, a dropped connection) is a failure even when the other process would have answered.
  const apiTarget = (i: number) => counted(fetchTarget(c!.apis[i]!.url, `api${i + 1}`, 20_000), tally);
  const target = () => keeping5xx(failover(c!.apis.map((_, i) => apiTarget(i))));
  const pay = async (plans: PayerPlan[], first: number) => {
    const results = await Promise.all(plans.map((plan, i) => runPayer(fromClient(target(), first + i), c!.simUrl, plan)));
    paid += results.filter((r) => r.outcome === 'paid' || r.outcome === 'aprobado').length;
    return results;
  };
  /** Payments under way: own-account ones ended, card forms opened. */
  const progress = async () => (await c!.db.db.$count(transactions, sql`${transactions.status} <> 'pending'`)) + (await c!.db.db.$count(webpayAttempts));
  const readiness = () => Promise.all(c!.apis.map((a) => fetch(`${a.url}/ready`, { signal: AbortSignal.timeout(20_000) }).then((r) => r.status)));
  /** Milliseconds until both processes answer /ready with 200 (Infinity if they do not within READY_WITHIN_MS). */
  const untilReady = async () => {
    const from = Date.now();
    while (Date.now() - from < READY_WITHIN_MS) {
      if ((await readiness()).every((s) => s === 200)) return Date.now() - from;
      await sleep(50);
    }
    return Number.POSITIVE_INFINITY;
  };
  const readyAfter: number[] = [];

  it('answers 503 with the envelope while PostgreSQL restarts, crashes or is down, and recovers without restarting the API', async () => {
    const all: PayerResult[] = [];
    let client = 0;
    for (const [round, fault] of FAULTS.entries()) {
      const fivesBefore = fiveHundreds.length;
      const base = await progress();
      let finished = false;
      const running = pay(planPayers(c!.members, RELIABILITY.killPayers, 400 + round), client).finally(() => (finished = true));
      client += RELIABILITY.killPayers;
      // The fault lands once payers are paying and requests are in flight, not while they still solve captchas.
      const payingBy = Date.now() + 15_000;
      while (!finished && Date.now() < payingBy && ((await progress()) - base < Math.max(2, RELIABILITY.killPayers / 8) || inflight === 0)) await sleep(25);

      const t0 = Date.now();
      let probes = '';
      if (fault.downMs === 0) {
        await server!.restart(fault.mode);
      } else {
        await server!.stop(fault.mode);
        const stoppedAt = Date.now();
        // Payers who arrive while it is down.
        const during = pay(planPayers(c!.members, Math.ceil(RELIABILITY.killPayers / 2), 500 + round), client);
        client += RELIABILITY.killPayers;
        // Each process is alive and says so, says the database is not ready, and fails a call at once (call 1 once
        // the replica's cache of the parameters has ended).
        await sleep(Math.max(0, PARAMETERS_CACHE_MS + 100 - (Date.now() - stoppedAt)));
        const timed = async <T>(run: () => Promise<T>) => {
          const s = Date.now();
          return { value: await run(), ms: Date.now() - s };
        };
        const health = await Promise.all(c!.apis.map((a) => timed(() => fetch(`${a.url}/health`, { signal: AbortSignal.timeout(20_000) }).then((r) => r.status))));
        const ready = await Promise.all(c!.apis.map((a) => timed(() => fetch(`${a.url}/ready`, { signal: AbortSignal.timeout(20_000) }).then((r) => r.status))));
        const calls = await Promise.all(
          c!.apis.map((_, i) =>
            timed(() =>
              keeping5xx(apiTarget(i)).request({
                method: 'POST',
                url: '/prod/parametro/consultar',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ consultarParametrosRequest: { userId: 'x', canalLlamada: 'PGEX', tipo: 'PE' } }),
              }),
            ),
          ),
        );
        const probeMs = Math.max(...[...health, ...ready, ...calls].map((p) => p.ms));
        expect(health.map((h) => h.value)).toEqual([200, 200]);
        expect(ready.map((r) => r.value)).toEqual([503, 503]);
        expect(calls.map((r) => [r.value.status, r.value.headers['retry-after'], Object.keys(jsonOf(r.value))[0]])).toEqual(
          c!.apis.map(() => [503, '5', 'consultarParametrosResponse']),
        );
        expect(probeMs).toBeLessThan(FAIL_FAST_MS);
        probes = `, probes answered within ${probeMs} ms`;
        // The server starts only after the probes: they always see it down, however slow the machine.
        await sleep(Math.max(0, fault.downMs - (Date.now() - stoppedAt)));
        await server!.start();
        all.push(...(await during));
      }
      faults++;
      const backAt = Date.now();
      windows.push({ from: t0, to: backAt });
      const faultMs = backAt - t0;
      // Both processes (the same ones: never restarted) say they are ready again on their own, while payers go on.
      const readyIn = untilReady();
      const results = await running;
      all.push(...results);
      expect(unexpectedOutcomes(results, true), JSON.stringify(histogram(results))).toEqual([]);
      const readyMs = await readyIn;
      expect(readyMs, 'both processes ready again').toBeLessThan(READY_WITHIN_MS);
      readyAfter.push(readyMs);
      notes.push(`${fault.downMs ? `stop -m ${fault.mode}, down ${fault.downMs / 1000}s, start` : `restart -m ${fault.mode}`} (${faultMs} ms): ${fiveHundreds.length - fivesBefore} answers 503${probes}`);
    }

    // Nothing hung, nothing but the expected 503s, all of them the envelope.
    expect(unexpectedOutcomes(all, true), JSON.stringify(histogram(all))).toEqual([]);
    expect(tally.byClass.network ?? 0).toBe(0);
    expect(tally.slowest).toBeLessThan(SLOWEST_MS);
    expect(fiveHundreds.length).toBeGreaterThan(0);
    // Every 503 met a fault: none for a request sent once the server was back (no broken pooled connection handed
    // out late, no state left failing). The grace covers a request that was on its way as the server came back.
    const outside = fiveHundredsAt.filter((f) => !windows.some((w) => f.answered >= w.from && f.sent <= w.to + BACK_GRACE_MS));
    expect(outside.map((f) => `sent ${f.sent - started} ms, answered ${f.answered - started} ms after the start`), JSON.stringify(windows.map((w) => [w.from - started, w.to - started]))).toEqual([]);
    const shapes = new Set(fiveHundreds.map((r) => `${r.status} ${r.headers['retry-after']} ${JSON.stringify(Object.values(jsonOf<Record<string, unknown>>(r))[0])}`));
    expect([...shapes].every((s) => s.startsWith('503 5 ') && s.includes(errorDetail('503').descripcion)), [...shapes].join('\n')).toBe(true);

    expect(await readiness()).toEqual([200, 200]);

    // And the next payers pay: the mix, plus deposits by card that nothing can refuse but a fault.
    const plans = planPayers(c!.members, 8, 600).map((p, i) => (i < 4 ? { ...p, method: 'card' as const, family: 'AH' as const, repeats: 0 } : p));
    const after = await pay(plans, client);
    expect(unexpectedOutcomes(after, false), JSON.stringify(histogram(after))).toEqual([]);
    expect(after.slice(0, 4).map((r) => r.outcome)).toEqual(['aprobado', 'aprobado', 'aprobado', 'aprobado']);

    // Card returns that met the fault are settled by the reconciliation; the short run clears the 30 s back-off
    // between two questions to Webpay, as faults.test.ts does.
    if (!RELIABILITY.full) await c!.db.db.update(webpayAttempts).set({ checkedAt: null }).where(eq(webpayAttempts.status, 'pending'));
    expect(await waitForSettlement(c!.db, 90_000)).toBe(0);
    // A debit the core booked while its process was killed is finished by the jobs, under its key.
    expect(await waitForPostings(c!.db, 90_000)).toBe(0);
    const report = await checkInvariants(c!.db.db, c!.baseline, { provider: c!.store, noPendingCard: true, core: await c!.core.books(), noPendingPostings: true });
    violations = report.violations.length;
    expect(report.violations).toEqual([]);
    expect(personalDataIn(c!.output(), c!.members)).toEqual([]);
    expect(c!.output()).toContain('database unavailable');
    // The server really went through a crash recovery.
    expect(server!.log()).toMatch(/database system was not properly shut down; automatic recovery in progress/);

    notes.push(
      `${all.length + after.length} payers; ${fiveHundreds.length} answers 503 in all, slowest answer ${tally.slowest} ms; ` +
        `both processes ready again ${readyAfter.join('/')} ms after each start, without a restart; transactions ${JSON.stringify(report.transactions)}`,
    );
    if (process.env.RELIABILITY_VERBOSE) console.log(notes.join('\n'), histogram(all));
  }, 240_000);
});
