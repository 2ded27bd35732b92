import { businessToday } from '@pago/domain/business-time';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { shiftedClock } from '../../src/clock';
import type { Database } from '../../src/db/client';
import { seedDemoMembers, seedParameters } from '../../src/db/seed';
import { createWebpayClient } from '../../src/services/webpay-client';
import { businessNoon, coreClientFor, DATABASE_KINDS, openTestDatabase, startCoreSim, TEST_ADMIN_TOKEN, testConfig, type CoreBooks } from '../support/test-app';
import { AuthoriserDevice } from '../support/authoriser-device';
import { DECISION_PATH, DECISION_RESPONSE, ENROLAR_PATH, PENDIENTES_PATH, type Solicitud } from '@pago/domain/call-autorizador';
import { and, eq, sql } from 'drizzle-orm';
import { authorizations, coreOperations } from '../../src/db/schema';
import { codeOf, listar, oldestOf, post, seleccionar, solveCaptcha } from './flows';
import { insertLoadMembers, LOAD_PASSWORD, loadMemberProfiles, type LoadMember } from './fixtures';
import { personalDataIn, fromClient, startCluster, transactionStates, waitForPostings, waitForSettlement, type Cluster } from './cluster';
import { counted, fetchTarget, injectTarget, jsonOf, roundRobin, type Target } from './http';
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
  /** Lets every posting reach the core; answers how many it has still not acknowledged. */
  drainPostings(): Promise<number>;
  coreBooks(): Promise<CoreBooks>;
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
  const core = await startCoreSim(businessToday(clock()), { members: loadMemberProfiles(members) });
  const base = testConfig({ altchaCounter: { min: 10, max: 50 } });
  const app = await buildApp({
    config: { ...base, webpay: { ...base.webpay, settleAfterSeconds: 0, reconcileIntervalSeconds: 0 } },
    database,
    clock,
    core: coreClientFor(core.origin),
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
    async drainPostings() {
      for (let i = 0; i < 20; i++) {
        await database.db.update(coreOperations).set({ nextAttemptAt: sql`now()` }).where(eq(coreOperations.status, 'pending'));
        await app.services.corePostings.postDue();
        const left = await database.db.$count(coreOperations, eq(coreOperations.status, 'pending'));
        if (left === 0) return 0;
      }
      return database.db.$count(coreOperations, eq(coreOperations.status, 'pending'));
    },
    coreBooks: () => core.books(),
    output: () => '',
    async close() {
      await app.close();
      await database.close();
      await sim.close();
      await core.close();
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
    drainPostings: () => waitForPostings(cluster.db, 60_000),
    coreBooks: () => cluster.core.books(),
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
    const postingsLeft = await s.drainPostings();
    const report = await checkInvariants(s.database.db, s.baseline, { provider: s.store, noPendingCard: true, core: await s.coreBooks(), noPendingPostings: true });
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
    expect(postingsLeft).toBe(0);
    expect(report.violations).toEqual([]);
    expect(tally.errors5xx).toBe(0);
    expect(leaked).toEqual([]);
    // Both paths really paid something, and the races really happened (someone found an instalment already paid).
    expect(results.some((r) => r.outcome === 'paid')).toBe(true);
    expect(results.some((r) => r.outcome === 'aprobado')).toBe(true);
    expect(report.totals.paid).toBeGreaterThan(0);
    expect(report.charged).toBe(report.totals.paidByCard - s.baseline.totals.paidByCard);
  }, 240_000 + PAYERS * 1_000);

  it('approvals racing the authoriser countdown: paid only on an approval made in time, and once', async () => {
    const members = s.members.filter((m) => m.products.PC).slice(0, 8);
    const before = await captureLedger(s.database.db);
    const races = await Promise.all(
      members.map(async (m, i) => {
        const target = fromClient(s.target, 500 + i);
        const phone = await AuthoriserDevice.create();
        const issued = await post(target, `/admin/socios/${m.rut}/autorizador/codigo`, {}, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
        const { codigo } = jsonOf<{ operacionesResponse: { codigo: string } }>(issued).operacionesResponse;
        phone.dispositivo = jsonOf<{ enrolarDispositivoResponse: { dispositivo: string } }>(await post(target, ENROLAR_PATH, await phone.enrolment(codigo))).enrolarDispositivoResponse.dispositivo;
        const { token, productos } = await listar(target, m.rut);
        const { idTransaccion } = await seleccionar(target, token, m.rut, [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
        const [numero, dv] = m.rut.split('-') as [string, string];
        const login = await post(target, '/prod/pago/producto/cuentavista/autentica', { autenticaConsultaFactoresRequest: { userId: m.rut, canalLlamada: 'PGEX', token, autenticacion: { rut: numero, dv, clave: LOAD_PASSWORD } } }, { authorization: await solveCaptcha(target) });
        const { numeroCuenta } = jsonOf<Record<string, { numeroCuenta: string }>>(login).autenticaConsultaFactoresResponse!;
        await post(target, '/prod/pago/producto/cuentavista/autorizar', { autorizarPagoProductoCVRequest: { userId: m.rut, canalLlamada: 'PGEX', token, factor: 2, rut: m.rut, rutPago: m.rut } });
        return { target, phone, token, numeroCuenta, idTransaccion, rut: m.rut, approveAfterMs: (i * 53) % 400 };
      }),
    );
    // The countdown ends for each within 400 ms (instead of 120 s), while its phone approves at its own moment.
    await s.database.db.execute(sql`update authorizations set expires_at = now() + (random() * interval '400 milliseconds') where status = 'pending' and factor = 2`);
    const outcomes = await Promise.all(
      races.map(async (r) => {
        // A countdown may end before the phone even sees the request: then there is nothing to approve.
        const [push] = jsonOf<{ solicitudesPendientesResponse: { solicitudes: Solicitud[] } }>(await post(r.target, PENDIENTES_PATH, await r.phone.pendingRequest())).solicitudesPendientesResponse.solicitudes;
        const approval = push ? await r.phone.decision(push, 'aprobar') : null;
        const decided = new Promise((resolve) => setTimeout(resolve, r.approveAfterMs)).then(() => (approval ? post(r.target, DECISION_PATH, approval) : null));
        const pay = () => post(r.target, '/prod/pago/producto/cuentavista/pagar', { pagarProductoCVRequest: { userId: r.rut, canalLlamada: 'PGEX', token: r.token, rutTitular: r.rut, numeroCuenta: r.numeroCuenta, rutPago: r.rut, factor: 2 } });
        let paid = 'none';
        for (let i = 0; i < 40; i++) {
          const answers = await Promise.all([pay(), pay()]);
          const codes = answers.map((a) => codeOf(a, 'pagarProductoCVResponse') ?? 'paid');
          if (codes.every((c) => c === '25')) {
            await new Promise((resolve) => setTimeout(resolve, 25));
            continue;
          }
          // Two calls at once: the one that found the countdown over says 999, the other then 485.
          paid = codes.includes('paid') ? 'paid' : codes.includes('999') ? '999' : codes.find((c) => c !== '25')!;
          break;
        }
        const decision = await decided;
        return { idTransaccion: r.idTransaccion, decision: decision ? (codeOf(decision, DECISION_RESPONSE) ?? 'approved') : 'not shown', paid, after: codeOf(await pay(), 'pagarProductoCVResponse') ?? 'paid' };
      }),
    );
    for (const o of outcomes) {
      const [auth] = await s.database.db.select().from(authorizations).where(and(eq(authorizations.idTransaccion, o.idTransaccion), eq(authorizations.factor, 2)));
      const where = JSON.stringify(o);
      expect(o.after === 'paid', where).toBe(o.paid === 'paid');
      if (o.decision === 'approved') {
        // The approval was taken before the request expired; then it paid, unless the money or the instalment was
        // gone meanwhile (other payers of this suite share the accounts).
        expect(auth!.decidedAt!.getTime(), where).toBeLessThanOrEqual(auth!.expiresAt.getTime());
        expect(['paid', '47203', '442'], where).toContain(o.paid);
      } else {
        // The countdown won: the approval after it was refused (523), or came too late to be shown, and call 6 said
        // the time was over (999).
        expect(['523', 'not shown'], where).toContain(o.decision);
        expect(o.paid, where).toBe('999');
      }
    }
    const report = await checkInvariants(s.database.db, before, { provider: s.store });
    expect(report.violations).toEqual([]);
    if (process.env.RELIABILITY_VERBOSE) console.log(outcomes.map((o) => `${o.decision}/${o.paid}`));
    recordFigures({
      section: 'concurrency',
      database: `${kind} (authoriser countdown)`,
      paymentsPaid: outcomes.filter((o) => o.paid === 'paid').length,
      invariantViolations: report.violations.length,
      notes: `approval/call 6: ${JSON.stringify(outcomes.map((o) => `${o.decision}/${o.paid}`))}`,
    });
  }, 120_000);
});
