import { errorDetail } from '@pago/domain/errors';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { shiftedClock } from '../../src/clock';
import { openDatabase, type Database } from '../../src/db/client';
import { transactions, webpayAttempts } from '../../src/db/schema';
import { seedDemoMembers, seedParameters } from '../../src/db/seed';
import { databaseFailure } from '../../src/loggable-error';
import { loggerOptions } from '../../src/logging';
import { createWebpayClient, type WebpayClient } from '../../src/services/webpay-client';
import { businessNoon, openTestDatabase, testConfig } from '../support/test-app';
import { fromClient, personalDataIn, startCluster, waitForPostings, waitForSettlement, type Cluster } from './cluster';
import { codeOf, listar, oldestOf, seleccionar, startCard, useCardForm, VISA_APPROVED } from './flows';
import { counted, fetchTarget, injectTarget, jsonOf, type HttpRequest, type HttpResponse, type Target } from './http';
import { captureLedger, checkInvariants } from './ledger';
import { failover, histogram, unexpectedOutcomes, planPayers, runPayer, type PayerPlan } from './load';
import { createPostgresDatabase } from '../support/scratch-database';
import { backendsInTransaction, FaultyProxy } from './processes';
import { RELIABILITY, recordFigures, RequestTally } from './settings';

// Part 4, a network partition between the API and PostgreSQL: packets dropped with no reset, so no socket fails on
// its own and, unbounded, every request would wait for the partition to end. Every wait for the database is bounded
// (db/client.ts) and so is every request (app.ts); a statement cut off mid-transaction must roll back whole.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

describe('a request the API cannot answer in time (pglite, in process)', () => {
  const REQUEST_TIMEOUT_MS = 1_000;
  const lines: string[] = [];
  const store = new SimStore();
  let sim: FastifyInstance;
  let simUrl: string;
  let app: FastifyInstance;
  let database: Database;
  let commitDelayMs = 0;

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const real = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
    // A Webpay commit slower than the request's bound (within its own timeout): the handler outlives its request.
    const webpay: WebpayClient = { ...real, commit: async (token) => (await sleep(commitDelayMs), real.commit(token)) };
    const clock = shiftedClock(businessNoon());
    database = await openTestDatabase('pglite');
    await seedParameters(database.db);
    await seedDemoMembers(database.db, clock());
    app = await buildApp({
      config: testConfig({ requestTimeoutMs: REQUEST_TIMEOUT_MS, altchaCounter: { min: 10, max: 50 } }),
      database,
      clock,
      webpay,
      logger: { ...loggerOptions('trace'), stream: { write: (line: string) => void lines.push(line) } },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await sim?.close();
  });

  it('answers 503 with the envelope and Retry-After, lets the late work finish whole, and logs it without its token', async () => {
    const target = injectTarget(app);
    const before = await captureLedger(database.db);
    const rut = '11111111-1';
    const session = await listar(target, rut);
    const producto = [oldestOf(session.productos.find((p) => p.tipoFamiliaProducto !== 'AH')!, 1)];
    const selection = await seleccionar(target, session.token, rut, producto);
    const card = await startCard(target, { token: session.token, rut }, { idTransaccion: selection.idTransaccion, producto });
    const fields = await useCardForm(simUrl, card.webpayToken, { card: VISA_APPROVED });

    commitDelayMs = REQUEST_TIMEOUT_MS + 500;
    const t0 = Date.now();
    // Webpay's GET return carries its token in the URL: the very line a late answer would log.
    const res = await target.request({ method: 'GET', url: `/api/pagoexpress/webpay/return?token_ws=${encodeURIComponent(fields.token_ws!)}` });
    const answeredIn = Date.now() - t0;
    expect([res.status, codeOf(res, 'webpayReturn'), res.headers['retry-after']]).toEqual([503, '503', '5']);
    expect(answeredIn).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(answeredIn).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);

    // The handler went on and settled the payment whole: paid with its voucher, Webpay's charge applied.
    const deadline = Date.now() + 10_000;
    while ((await database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, fields.token_ws!)))[0]?.status === 'pending' && Date.now() < deadline) await sleep(100);
    await sleep(200);
    const [trx] = await database.db.select().from(transactions).where(eq(transactions.idTransaccion, selection.idTransaccion));
    expect(trx?.status).toBe('paid');
    expect((await checkInvariants(database.db, before, { provider: store })).violations).toEqual([]);

    const log = lines.join('');
    expect(log).toContain('request timed out');
    expect(log).toContain('the late answer of a request that timed out was dropped');
    expect(log).not.toContain(fields.token_ws!);
    expect(log).not.toContain(session.token);
  }, 30_000);
});

describe.skipIf(!process.env.DATABASE_URL)('a network partition between the API and PostgreSQL', () => {
  it('rolls back a transaction whose statement timed out, even when the statement reaches the server once the partition heals', async () => {
    const pgDb = await createPostgresDatabase(process.env.DATABASE_URL!, 'pago_rel');
    const url = new URL(pgDb.url);
    const proxy = new FaultyProxy(url.hostname, Number(url.port || 5432));
    await proxy.listen();
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const QUERY_TIMEOUT_MS = 800;
    // One pooled connection: the next transaction gets the very client whose statement timed out, if the pool keeps it.
    const database = await openDatabase({ url: url.toString(), poolMax: 1, timeouts: { connectMs: 500, statementMs: 600, queryMs: QUERY_TIMEOUT_MS, idleInTransactionMs: 5_000 } });
    const amount = async () => ((await database.db.execute(sql`select amount from money where id = 1`)) as unknown as { rows: { amount: number }[] }).rows[0]!.amount;
    try {
      await database.db.execute(sql`create table money (id int primary key, amount int not null)`);
      await database.db.execute(sql`insert into money values (1, 0)`);
      const t0 = Date.now();
      const failure = await database.db
        .transaction(async (tx) => {
          await tx.execute(sql`update money set amount = amount + 1 where id = 1`);
          proxy.blackhole();
          await tx.execute(sql`update money set amount = amount + 100 where id = 1`);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      const failedIn = Date.now() - t0;
      expect(databaseFailure(failure)).toBe('unavailable');
      // The rollback did not wait a second timeout behind the abandoned statement.
      expect(failedIn).toBeLessThan(QUERY_TIMEOUT_MS + 500);
      // The held statement now reaches the server, inside the abandoned transaction.
      proxy.heal();
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`update money set amount = amount + 10 where id = 1`);
      });
      // Only the second transaction: the first left nothing, not even through the second's COMMIT.
      expect(await amount()).toBe(10);
    } finally {
      await database.close();
      await proxy.close();
      await pgDb.remove();
    }
  }, 30_000);

  describe('under load on two API processes', () => {
    // Small, so the test is short; in production's proportions (config.ts checks them).
    const TIMEOUTS = { connect: 1_000, statement: 2_000, query: 2_500, idleInTransaction: 2_500, request: 5_000 };
    let c: Cluster;
    const tally = new RequestTally();
    const started = Date.now();
    const fiveHundreds: HttpResponse[] = [];
    const notes: string[] = [];
    let paid = 0;

    beforeAll(async () => {
      c = await startCluster({
        processes: 2,
        members: Math.max(6, Math.ceil(RELIABILITY.killPayers / 3)),
        viaPgProxy: true,
        env: {
          DB_CONNECT_TIMEOUT_MS: String(TIMEOUTS.connect),
          DB_STATEMENT_TIMEOUT_MS: String(TIMEOUTS.statement),
          DB_QUERY_TIMEOUT_MS: String(TIMEOUTS.query),
          DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(TIMEOUTS.idleInTransaction),
          REQUEST_TIMEOUT_MS: String(TIMEOUTS.request),
        },
      });
    }, 120_000);

    afterAll(async () => {
      recordFigures({
        section: 'faults',
        database: 'postgres (partition)',
        faultsInjected: 1,
        requestsServed: tally.served,
        responses5xx: tally.errors5xx,
        paymentsPaid: paid,
        seconds: Math.round((Date.now() - started) / 1000),
        notes: notes.join('; '),
      });
      await c?.close();
    });

    const keeping5xx = (inner: Target): Target => ({
      name: inner.name,
      async request(r: HttpRequest) {
        const res = await inner.request(r);
        if (res.status >= 500) fiveHundreds.push(res);
        return res;
      },
      forClient: (address) => keeping5xx(inner.forClient!(address)),
    });
    const cluster = () => keeping5xx(counted(failover(c.apis.map((a, i) => fetchTarget(a.url, `api${i + 1}`, 20_000))), tally));
    const pay = async (plans: PayerPlan[], first: number) => {
      const results = await Promise.all(plans.map((plan, i) => runPayer(fromClient(cluster(), first + i), c.simUrl, plan)));
      paid += results.filter((r) => r.outcome === 'paid' || r.outcome === 'aprobado').length;
      return results;
    };

    it('answers 503 with the envelope within the bound while packets are dropped, and recovers by itself once it heals', async () => {
      const bound = TIMEOUTS.request + 1_500;
      // Server-side, an abandoned transaction ends by statement_timeout and then idle_in_transaction_session_timeout.
      const partitionMs = Math.max(RELIABILITY.partitionSeconds * 1000, TIMEOUTS.statement + TIMEOUTS.idleInTransaction + 2_000);
      const before = pay(planPayers(c.members, RELIABILITY.killPayers, 301), 0);
      // Cut once payers are paying (the first own-account payment done, or a card form opened), not while they
      // are still solving captchas.
      const payingBy = Date.now() + 15_000;
      const paying = async () => (await c.db.db.$count(transactions, sql`${transactions.status} <> 'pending'`)) + (await c.db.db.$count(webpayAttempts));
      while ((await paying()) < Math.max(2, RELIABILITY.killPayers / 8) && Date.now() < payingBy) await sleep(50);
      c.pgProxy!.blackhole();
      const cutAt = Date.now();
      const openAtCut = await backendsInTransaction(process.env.DATABASE_URL!, c.dbName);
      // Payers who arrive during the partition.
      const during = pay(planPayers(c.members, Math.ceil(RELIABILITY.killPayers / 2), 302), 500);

      // The processes are alive and say so; they say the database is not ready, and a call fails, all within the bound.
      const probe = async (url: string, init: RequestInit = {}) => {
        const t0 = Date.now();
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
        return { res, ms: Date.now() - t0 };
      };
      const health = await Promise.all(c.apis.map((a) => probe(`${a.url}/health`)));
      const ready = await Promise.all(c.apis.map((a) => probe(`${a.url}/ready`)));
      const call = await probe(`${c.apis[0]!.url}/prod/parametro/consultar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ consultarParametrosRequest: { userId: 'x', canalLlamada: 'PGEX', tipo: 'PE' } }),
      });
      expect(health.map((h) => h.res.status)).toEqual([200, 200]);
      expect(Math.max(...health.map((h) => h.ms))).toBeLessThan(1_000);
      expect(ready.map((r) => r.res.status)).toEqual([503, 503]);
      expect(Math.max(...ready.map((r) => r.ms))).toBeLessThan(bound);
      const callBody = (await call.res.json()) as { consultarParametrosResponse?: { error?: { errores: { detalleError: { codigo: string } } } } };
      expect([call.res.status, callBody.consultarParametrosResponse?.error?.errores.detalleError.codigo, call.res.headers.get('retry-after')]).toEqual([503, '503', '5']);
      expect(call.ms).toBeLessThan(bound);

      // While the network is still cut, the server ends the transactions the partition abandoned: their row locks go.
      let openLeft = -1;
      while (Date.now() - cutAt < TIMEOUTS.statement + TIMEOUTS.idleInTransaction + 2_000) {
        openLeft = await backendsInTransaction(process.env.DATABASE_URL!, c.dbName);
        if (openLeft === 0) break;
        await sleep(250);
      }
      const locksGoneIn = Date.now() - cutAt;
      expect(openLeft).toBe(0);

      await sleep(Math.max(0, partitionMs - (Date.now() - cutAt)));
      c.pgProxy!.heal();
      const results = [...(await before), ...(await during)];
      // Nothing hung (a request with no answer would show as 'network:…'), nothing but the expected 503s.
      expect(unexpectedOutcomes(results, true), JSON.stringify(histogram(results))).toEqual([]);
      expect(tally.byClass.network ?? 0).toBe(0);
      expect(tally.slowest).toBeLessThan(bound);
      expect(fiveHundreds.length).toBeGreaterThan(0);
      const shapes = new Set(fiveHundreds.map((r) => `${r.status} ${r.headers['retry-after']} ${JSON.stringify(Object.values(jsonOf<Record<string, unknown>>(r))[0])}`));
      expect([...shapes].every((s) => s.startsWith('503 5 ') && s.includes(errorDetail('503').descripcion)), [...shapes].join('\n')).toBe(true);

      // Healed: both processes (never restarted) are ready again on their own, and the next payers pay.
      const readyBy = Date.now() + 15_000;
      while (Date.now() < readyBy) {
        const statuses = await Promise.all(c.apis.map((a) => fetch(`${a.url}/ready`).then((r) => r.status)));
        if (statuses.every((s) => s === 200)) break;
        await sleep(200);
      }
      const recoveredIn = Date.now() - cutAt - partitionMs;
      expect(await Promise.all(c.apis.map((a) => fetch(`${a.url}/ready`).then((r) => r.status)))).toEqual([200, 200]);
      const after = await pay(planPayers(c.members, 8, 303), 1_000);
      expect(unexpectedOutcomes(after, false), JSON.stringify(histogram(after))).toEqual([]);

      // Card payments whose return came during the partition are settled by the reconciliation; the short run
      // clears the 30 s back-off between two questions to Webpay, as faults.test.ts does.
      if (!RELIABILITY.full) await c.db.db.update(webpayAttempts).set({ checkedAt: null }).where(eq(webpayAttempts.status, 'pending'));
      expect(await waitForSettlement(c.db, 90_000)).toBe(0);
      expect(await waitForPostings(c.db, 90_000)).toBe(0);
      const report = await checkInvariants(c.db.db, c.baseline, { provider: c.store, noPendingCard: true, core: await c.core.books(), noPendingPostings: true });
      expect(report.violations).toEqual([]);
      expect(personalDataIn(c.output(), c.members)).toEqual([]);

      // Which bound answered: the database's own timeouts (after rolling back), or the request's.
      const requestTimeouts = c.output().split('request timed out').length - 1;
      notes.push(
        `partition of ${Math.round(partitionMs / 1000)}s under ${results.length} payers: ${fiveHundreds.length} answers 503 (${requestTimeouts} by the request's bound), ` +
          `slowest answer ${tally.slowest} ms (bound ${TIMEOUTS.request} ms); ${openAtCut} server transactions open at the cut, none left after ${locksGoneIn} ms; ` +
          `ready again ${Math.max(0, recoveredIn)} ms after healing; transactions ${JSON.stringify(report.transactions)}`,
      );
      if (process.env.RELIABILITY_VERBOSE) console.log(notes.at(-1), histogram(results));
    }, 240_000);
  });
});
