import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, members, products, webpayAttempts } from '../../src/db/schema';
import { MAX_FAILURES } from '../../src/services/card-reconciliation-service';
import { createWebpayClient, type WebpayClient } from '../../src/services/webpay-client';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { listar, oldestOf, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from './flows';
import { injectTarget, type Target } from './http';
import { captureLedger, checkInvariants } from './ledger';
import { recordFigures } from './settings';

// Money Webpay took must be applied or given back, never left unrecorded, and one card payment that cannot be
// settled must never stop the reconciliation of the others.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const RUT = '11111111-1';

describe.each(DATABASE_KINDS)('money taken at Webpay is applied or given back (%s)', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  let simUrl: string;
  let target: Target;
  let store: SimStore;
  let attacks = 0;
  let staleStatusOnce = false;

  beforeEach(async () => {
    store = new SimStore();
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const real = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
    // Webpay, once, answering a status that is not yet true: the form reported ended while the payment was approved.
    const webpay: WebpayClient = {
      ...real,
      async status(token) {
        const answer = await real.status(token);
        if (!staleStatusOnce || !answer.ok) return answer;
        staleStatusOnce = false;
        return { ...answer, data: { ...answer.data, details: answer.data.details.map((d) => ({ ...d, status: 'FAILED' })) } };
      },
    };
    staleStatusOnce = false;
    t = await startTestApp(kind, { webpay, config: { altchaCounter: { min: 10, max: 50 } } });
    target = injectTarget(t.app);
  });
  afterEach(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: attacks });
    attacks = 0;
    await t?.close();
    await sim?.close();
  });

  const savingsOf = async () =>
    (await t.database.db.select().from(products).innerJoin(members, eq(members.id, products.memberId)).where(and(eq(members.rut, RUT), eq(products.family, 'AH'))))[0]!.products;

  /** A card deposit of `amount` into the member's first savings account, paid on Webpay's form; answers the return's fields. */
  async function depositByCard(amount: number) {
    const { token, productos } = await listar(target, RUT);
    const savings = productos.find((p) => p.tipoFamiliaProducto === 'AH')!;
    const producto = [oldestOf(savings, 1, amount)];
    const sel = await seleccionar(target, token, RUT, producto);
    const started = await startCard(target, { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
    return { ...started, idTransaccion: sel.idTransaccion, fields: await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED }) };
  }
  const attemptOf = async (token: string) => (await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, token)))[0]!;
  const metric = async (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec((await t.app.inject({ method: 'GET', url: '/metrics' })).body)?.[1]);

  it('applies a card deposit that takes a savings balance past 2^31', async () => {
    attacks++;
    const before = await captureLedger(t.database.db);
    const account = await savingsOf();
    await t.database.db.update(products).set({ saldo: 2_147_480_000 }).where(eq(products.id, account.id));
    const deposit = await depositByCard(10_000);
    expect(await postReturn(target, deposit.fields)).toBe('aprobado');
    expect((await savingsOf()).saldo).toBe(2_147_490_000);
    expect((await attemptOf(deposit.webpayToken)).status).toBe('committed');
    expect((await checkInvariants(t.database.db, { ...before, savings: new Map([...before.savings, [account.id, 2_147_480_000]]) }, { provider: store })).violations).toEqual([]);
  });

  it('gives the money back, with the reason in the trail, when a payment Webpay committed cannot be applied', async () => {
    attacks++;
    const account = await savingsOf();
    // A fault of our own while applying it: the database refuses the savings account's update.
    await t.database.db.execute(sql.raw(`create function refuse_update() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`));
    await t.database.db.execute(sql.raw(`create trigger refuse_savings before update on products for each row when (old.id = '${account.id}') execute function refuse_update()`));
    const deposit = await depositByCard(10_000);
    // Charged and given back at once: the member reads that the card was charged and refunded, never 'no charge'.
    expect(await postReturn(target, deposit.fields)).toBe('reembolsado');
    expect((await attemptOf(deposit.webpayToken)).status).toBe('refunded');
    expect(store.get(deposit.webpayToken)!.details.map((d) => d.status)).toEqual(['REVERSED']);
    const trail = await t.app.inject({ method: 'GET', url: `/admin/transacciones/${deposit.idTransaccion}`, headers: { authorization: `Bearer ${t.app.config.adminToken}` } });
    expect(JSON.stringify(trail.json())).toContain('no aplicable');
    // Nothing is left for the reconciliation to retry.
    expect((await t.app.services.card.reconcileOnce()).failed).toBe(0);
  });

  it('reconciles each abandoned card payment on its own: one that fails backs off, is set aside in the end, and never blocks the others', async () => {
    attacks++;
    // Two members' browsers never came back from Webpay after paying; the older one cannot be settled.
    const stuck = await depositByCard(10_000);
    const other = await depositByCard(20_000);
    await t.database.db.execute(sql`update webpay_attempts set created_at = now() - interval '1 hour' where token = ${stuck.webpayToken}`);
    await t.database.db.execute(sql`update webpay_attempts set created_at = now() - interval '30 minutes' where token = ${other.webpayToken}`);
    await t.database.db.execute(sql.raw(`create function refuse_update() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`));
    await t.database.db.execute(sql.raw(`create trigger refuse_stuck before update on transactions for each row when (old.id_transaccion = '${stuck.idTransaccion}') execute function refuse_update()`));

    expect(await metric('pago_online_webpay_reconciliation_backlog')).toBe(2);
    const run = await t.app.services.card.reconcileOnce();
    expect(run).toMatchObject({ settled: 1, failed: 1, backlog: 1 });
    expect((await attemptOf(other.webpayToken)).status).toBe('committed');
    const failing = await attemptOf(stuck.webpayToken);
    expect(failing).toMatchObject({ status: 'pending', failures: 1 });
    expect(failing.nextCheckAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await metric('pago_online_webpay_reconciliation_backlog')).toBe(1);

    // It backs off: the next run does not take it again at once.
    expect(await t.app.services.card.reconcileOnce()).toMatchObject({ settled: 0, failed: 0, backlog: 1 });
    // After MAX_FAILURES it is set aside for the operator, with an audit line, and no longer retried.
    await t.database.db.update(webpayAttempts).set({ failures: MAX_FAILURES - 1, nextCheckAt: null, checkedAt: null }).where(eq(webpayAttempts.token, stuck.webpayToken));
    expect((await t.app.services.card.reconcileOnce()).failed).toBe(1);
    expect((await attemptOf(stuck.webpayToken)).status).toBe('set_aside');
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'webpay.apartado'))).toHaveLength(1);
    expect(await metric('pago_online_webpay_set_aside')).toBe(1);
    expect(await metric('pago_online_webpay_reconciliation_backlog')).toBe(0);
    expect(await t.app.services.card.reconcileOnce()).toMatchObject({ settled: 0, failed: 0, backlog: 0 });
  });

  it('asks Webpay before believing a cancellation: a forged one neither cancels a paid form nor an open one', async () => {
    attacks++;
    const before = await captureLedger(t.database.db);
    // The member paid on the form; before the browser's return arrives, someone posts a cancellation for its token.
    const paid = await depositByCard(10_000);
    expect(await postReturn(target, { TBK_TOKEN: paid.webpayToken, TBK_ORDEN_COMPRA: 'x', TBK_ID_SESION: 'x' })).toBe('aprobado');
    expect(await postReturn(target, paid.fields)).toBe('aprobado');
    expect((await attemptOf(paid.webpayToken)).status).toBe('committed');

    // A form still open: a forged cancellation by token or by buy order changes nothing, and the member pays.
    const { token, productos } = await listar(target, RUT);
    const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 1, 20_000)];
    const sel = await seleccionar(target, token, RUT, producto);
    const open = await startCard(target, { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
    const buyOrder = (await attemptOf(open.webpayToken)).buyOrder;
    expect(await postReturn(target, { TBK_TOKEN: open.webpayToken })).toBe('pendiente');
    expect(await postReturn(target, { TBK_ORDEN_COMPRA: buyOrder })).toBe('pendiente');
    expect((await attemptOf(open.webpayToken)).status).toBe('pending');
    // An older form of the same transaction, really aborted, does not cancel the transaction the newer one pays.
    const newer = await startCard(target, { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
    expect(await postReturn(target, await useCardForm(simUrl, open.webpayToken, 'abort'))).toBe('anulado');
    expect(await postReturn(target, await useCardForm(simUrl, newer.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    // Each attempt's refused cancellations are one line in the audit trail, and a count on the attempt.
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'webpay.anulacion.rechazada'))).toHaveLength(2);
    expect((await attemptOf(open.webpayToken)).refusedReturns).toBe(2);
    expect((await checkInvariants(t.database.db, before, { provider: store })).violations).toEqual([]);
  });

  it('looks again at a payment a browser return cancelled, and gives back what Webpay took after all', async () => {
    attacks++;
    const before = await captureLedger(t.database.db);
    // Paid on the form; a cancellation arrives first and Webpay's status, not yet up to date, says the form failed.
    const paid = await depositByCard(10_000);
    staleStatusOnce = true;
    expect(await postReturn(target, { TBK_TOKEN: paid.webpayToken, TBK_ORDEN_COMPRA: 'x', TBK_ID_SESION: 'x' })).toBe('anulado');
    expect(await postReturn(target, paid.fields)).toBe('anulado');
    expect((await attemptOf(paid.webpayToken)).status).toBe('cancelled');

    await t.database.db.update(webpayAttempts).set({ createdAt: sql`now() - interval '1 hour'` });
    await t.app.services.card.reconcileOnce();
    expect((await attemptOf(paid.webpayToken)).status).toBe('refunded');
    expect(store.get(paid.webpayToken)!.details.map((d) => d.status)).toEqual(['REVERSED']);
    expect(await t.database.db.$count(auditLog, eq(auditLog.kind, 'webpay.anulacion.revisada'))).toBe(1);
    expect((await checkInvariants(t.database.db, before, { provider: store })).violations).toEqual([]);
    // Nothing is asked twice.
    const again = await t.app.services.card.reconcileOnce();
    expect(again.settled).toBe(0);
  });

  it('looks once at an attempt Webpay really ended, and leaves it cancelled', async () => {
    attacks++;
    const { token, productos } = await listar(target, RUT);
    const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 1, 20_000)];
    const sel = await seleccionar(target, token, RUT, producto);
    const open = await startCard(target, { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
    expect(await postReturn(target, await useCardForm(simUrl, open.webpayToken, 'abort'))).toBe('anulado');
    expect((await attemptOf(open.webpayToken)).nextCheckAt).not.toBeNull();
    await t.database.db.update(webpayAttempts).set({ createdAt: sql`now() - interval '1 hour'` });
    expect((await t.app.services.card.reconcileOnce()).settled).toBe(1);
    const attempt = await attemptOf(open.webpayToken);
    expect(attempt.status).toBe('cancelled');
    expect(attempt.nextCheckAt).toBeNull();
    expect((await t.app.services.card.reconcileOnce()).settled).toBe(0);
  });
});
