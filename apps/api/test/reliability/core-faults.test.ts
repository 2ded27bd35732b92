import { businessToday } from '@pago/domain/business-time';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock';
import { coreOperations, transactions } from '../../src/db/schema';
import { createCorePostings } from '../../src/services/core-postings';
import { createWebpayClient } from '../../src/services/webpay-client';
import { productNumbered } from '../support/member-calls';
import { anotherReplica, businessNoon, coreClientFor, DATABASE_KINDS, startCoreSim, startTestApp, type CoreSimHandle, type TestApp } from '../support/test-app';
import { FlowStop, listar, oldestOf, payOwnAccount, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from './flows';
import { injectTarget, type Target } from './http';
import { captureLedger, checkInvariants, type LedgerSnapshot } from './ledger';
import { recordFigures } from './settings';

// The core banking system's faults, one at a time, each ending with the ledger across our books, Webpay's and the
// core's: the core down, slow, losing its answer after applying, restarted mid-posting, and two replicas posting.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

describe.each(DATABASE_KINDS)('core banking faults (%s)', (kind) => {
  let t: TestApp & { clock: Clock };
  let sim: FastifyInstance;
  let simUrl: string;
  let core: CoreSimHandle;
  let target: Target;
  let before: LedgerSnapshot;
  const store = new SimStore();
  const dir = mkdtempSync(join(tmpdir(), 'core-faults-'));
  const dataFile = join(dir, 'core.json');
  const today = businessToday(businessNoon());
  let port = 0;
  let faults = 0;

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    core = await startCoreSim(today, { dataFile });
    port = Number(new URL(core.origin).port);
    t = await startTestApp(kind, {
      coreSim: core,
      // Short enough that a slow core is told apart from a quick one within a test.
      core: coreClientFor(core.origin, 800),
      webpay: createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 }),
      config: { altchaCounter: { min: 10, max: 50 } },
    });
    target = injectTarget(t.app);
    before = await captureLedger(t.database.db);
  });
  afterAll(async () => {
    recordFigures({ section: 'faults', database: `${kind} (in-process core faults)`, faultsInjected: faults });
    await t?.close();
    await core?.close();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every posting due now, as if its back-off had passed, delivered until none is left. */
  async function drain(): Promise<void> {
    for (let i = 0; i < 10; i++) {
      await t.database.db.update(coreOperations).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(coreOperations.status, 'pending'));
      const done = await t.app.services.corePostings.postDue();
      if (done.unanswered === 0 && done.booked === 0 && done.refused === 0 && done.failed === 0) return;
    }
  }
  async function ledgerViolations(options: { drained: boolean }) {
    const report = await checkInvariants(t.database.db, before, { provider: store, core: await core.books(), noPendingPostings: options.drained });
    return report.violations;
  }
  async function ownAccount(rut: string, numeroProducto: string) {
    const { token, productos } = await listar(target, rut);
    const sel = await seleccionar(target, token, rut, [oldestOf(productNumbered(productos, numeroProducto), 1)]);
    try {
      await payOwnAccount(target, { token, memberRut: rut, payerRut: rut, clave: '1234', repeats: 2 });
      return { idTransaccion: sel.idTransaccion, outcome: 'paid' as const };
    } catch (error) {
      if (error instanceof FlowStop) return { idTransaccion: sel.idTransaccion, outcome: error.code };
      throw error;
    }
  }
  async function byCard(rut: string, numeroProducto: string) {
    const { token, productos } = await listar(target, rut);
    const producto = [oldestOf(productNumbered(productos, numeroProducto), 1)];
    const sel = await seleccionar(target, token, rut, producto);
    const started = await startCard(target, { token, rut }, { idTransaccion: sel.idTransaccion, producto });
    return { idTransaccion: sel.idTransaccion, estado: await postReturn(target, await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED })) };
  }
  const statusOf = async (id: string) => (await t.database.db.select({ s: transactions.status }).from(transactions).where(eq(transactions.idTransaccion, id)))[0]?.s;

  it('core down: own-account payments get the general failure and nothing moves; card payments are taken and posted when it returns', async () => {
    await core.faults({ unavailableNext: 10_000 });
    faults++;
    const own = await ownAccount('11111111-1', '410012345678');
    expect(own.outcome).toBe('503');
    const card = await byCard('9876543-3', '410098765431');
    expect(card.estado).toBe('aprobado');
    await drain();
    expect(await ledgerViolations({ drained: false })).toEqual([]);

    await core.faults({ reset: true });
    await drain();
    // The debit nobody answered was asked again under its key: the core booked it once, and it is paid here too.
    expect(await statusOf(own.idTransaccion)).toBe('paid');
    expect(await ledgerViolations({ drained: true })).toEqual([]);
  });

  it('a failure the core records and answers to every repeat: the own-account payment is refused with nothing debited, the card credit goes on under its next key', async () => {
    await core.faults({ failNext: 1 });
    faults++;
    const own = await ownAccount('15432876-9', '630043218765');
    expect(own.outcome).toBe('502');
    expect(await statusOf(own.idTransaccion)).toBe('pending');
    await core.faults({ failNext: 1 });
    const card = await byCard('11111111-1', '410087654321');
    expect(card.estado).toBe('aprobado');
    await drain();
    const tries = await t.database.db.select({ key: coreOperations.key, status: coreOperations.status }).from(coreOperations).where(eq(coreOperations.idTransaccion, card.idTransaccion));
    expect(tries.map((o) => o.status).sort()).toEqual(['booked', 'failed']);
    expect(await ledgerViolations({ drained: true })).toEqual([]);
  });

  it('core slow past our timeout: asked again under the same key, booked once', async () => {
    await core.faults({ latencyMs: 1_500 });
    faults++;
    const own = await ownAccount('12345678-5', '800056780001');
    await core.faults({ reset: true });
    // Answered within the call's own retries, or left to the postings: paid once either way.
    await new Promise((r) => setTimeout(r, 1_600));
    await drain();
    expect(['paid', '503']).toContain(own.outcome);
    expect(await statusOf(own.idTransaccion)).toBe('paid');
    expect(await ledgerViolations({ drained: true })).toEqual([]);
  });

  it('the answer lost after the core applied: the repeat is served from its record, one debit', async () => {
    await core.faults({ loseNext: 1 });
    faults++;
    const own = await ownAccount('11111111-1', '630055667788');
    expect(own.outcome).toBe('paid');
    await core.faults({ loseNext: 1 });
    faults++;
    const card = await byCard('11111111-1', '700011111111');
    expect(card.estado).toBe('aprobado');
    await drain();
    expect(await ledgerViolations({ drained: true })).toEqual([]);
  });

  it('the core restarted mid-posting keeps its books and its keys: nothing is booked twice', async () => {
    const first = await byCard('15432876-9', '630043218765');
    expect(first.estado).toBe('aprobado');
    // The core goes away with the credit still to post, and comes back on the same books.
    await core.close();
    faults++;
    expect((await t.app.services.corePostings.postDue()).booked).toBe(0);
    await drain();
    core = await startCoreSim(today, { dataFile, port });
    await drain();
    // And once more, with the credit applied but its answer lost at the restart.
    const second = await byCard('15432876-9', '630043218765');
    expect(second.estado).toBe('aprobado');
    await core.faults({ loseNext: 1 });
    await t.database.db.update(coreOperations).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(coreOperations.status, 'pending'));
    await t.app.services.corePostings.postDue();
    await core.close();
    core = await startCoreSim(today, { dataFile, port });
    faults++;
    await drain();
    expect(await ledgerViolations({ drained: true })).toEqual([]);
  });

  it('two replicas deliver the same postings at once: each booked once', async () => {
    const payments = [await byCard('9876543-3', '520098765432'), await byCard('14141414-3', '630014141414')];
    expect(payments.map((p) => p.estado)).toEqual(['aprobado', 'aprobado']);
    const other = createCorePostings(anotherReplica(kind, t.database.db), t.clock, coreClientFor(core.origin, 800), { leaseSeconds: 30, retryPausesMs: [] }, t.app.log);
    await core.faults({ latencyMs: 200 });
    faults++;
    await Promise.all([t.app.services.corePostings.postDue(), other.postDue(), t.app.services.corePostings.postDue(), other.postDue()]);
    await core.faults({ reset: true });
    await drain();
    expect(await ledgerViolations({ drained: true })).toEqual([]);
  });
});
