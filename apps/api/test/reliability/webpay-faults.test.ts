import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions, webpayAttempts } from '../../src/db/schema';
import { createWebpayClient, type WebpayClient } from '../../src/services/webpay-client';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { listar, oldestOf, payOwnAccount, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from './flows';
import { injectTarget, type Target } from './http';
import { captureLedger, checkInvariants } from './ledger';
import { productNumbered } from '../support/member-calls';
import { recordFigures } from './settings';

// Part 4, Webpay's faults at the worst moments, one at a time: between its commit and our refund, and a form
// left open while a newer one for the same transaction is paid.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

describe.each(DATABASE_KINDS)('Webpay faults at the worst moment (%s)', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  let simUrl: string;
  let target: Target;
  const store = new SimStore();
  let refundsDown = false;
  let faults = 0;

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const real = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
    // Webpay answers everything but refunds while `refundsDown`: it went away right after our commit.
    const webpay: WebpayClient = {
      ...real,
      refund: (...args) => (refundsDown ? Promise.resolve({ ok: false, kind: 'unavailable', message: 'connect ECONNREFUSED' }) : real.refund(...args)),
    };
    t = await startTestApp(kind, { webpay, config: { altchaCounter: { min: 10, max: 50 } } });
    target = injectTarget(t.app);
  });
  afterAll(async () => {
    recordFigures({ section: 'faults', database: `${kind} (in-process Webpay faults)`, faultsInjected: faults });
    await t?.close();
    await sim?.close();
  });

  /** Lets the reconciliation take every pending attempt now: as if their form's lifetime and the back-off had passed. */
  const age = () => t.database.db.execute(sql`update webpay_attempts set created_at = now() - interval '1 hour', checked_at = null where status in ('pending', 'refund_due')`);

  it('gives the money back later when Webpay is gone between its commit and our refund, and never keeps it unapplied', async () => {
    const before = await captureLedger(t.database.db);
    const rut = '11111111-1';
    // Tab 1 pays the MYPE instalment by card and is on Webpay's form; tab 2 pays the same instalment by own account.
    // Both select before either pays (a selection made while the other's form is open is refused, 443).
    const tab1 = await listar(target, rut);
    const pm = [oldestOf(productNumbered(tab1.productos, '630055667788'), 1)];
    const card = await seleccionar(target, tab1.token, rut, pm);
    const tab2 = await listar(target, rut);
    await seleccionar(target, tab2.token, rut, [oldestOf(productNumbered(tab2.productos, '630055667788'), 1)]);
    const started = await startCard(target, { token: tab1.token, rut }, { idTransaccion: card.idTransaccion, producto: pm });
    const fields = await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED });
    // While the form holds the instalment every call of tab 2's payment is refused (443); past that time
    // (WEBPAY_SETTLE_AFTER_SECONDS) tab 2 may pay it, and the card's later return finds it paid.
    await t.database.db.execute(sql`update webpay_attempts set created_at = now() - interval '8 minutes' where token = ${started.webpayToken}`);
    await payOwnAccount(target, { token: tab2.token, memberRut: rut, payerRut: rut, clave: '1234' });

    // Tab 1 comes back: Webpay commits the card, the instalment is already paid, the refund gets no answer.
    refundsDown = true;
    faults++;
    // Charged, and its refund under way: told so, never 'no charge'.
    expect(await postReturn(target, fields)).toBe('reembolso');
    refundsDown = false;
    await age();
    await t.app.services.card.reconcileOnce();

    const report = await checkInvariants(t.database.db, before, { provider: store, noPendingCard: true });
    expect(report.violations).toEqual([]);
    const [attempt] = await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, started.webpayToken));
    expect(attempt?.status).toBe('refunded');
    expect(store.get(started.webpayToken)!.details.map((d) => d.status)).toEqual(['REVERSED']);
  });

  it('does not let an abandoned form cancel the transaction a newer form (a reload) is paying', async () => {
    const before = await captureLedger(t.database.db);
    const rut = '9876543-3';
    const { token, productos } = await listar(target, rut);
    const pc = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)];
    const sel = await seleccionar(target, token, rut, pc);
    const first = await startCard(target, { token, rut }, { idTransaccion: sel.idTransaccion, producto: pc });
    // The member reloads the card screen: a second trip to Webpay for the same transaction.
    const second = await startCard(target, { token, rut }, { idTransaccion: sel.idTransaccion, producto: pc });
    // The first form's lifetime passes; the reconciliation finds nothing was entered on it.
    await t.database.db.execute(sql`update webpay_attempts set created_at = now() - interval '1 hour' where token = ${first.webpayToken}`);
    faults++;
    await t.app.services.card.reconcileOnce();
    const [afterFirst] = await t.database.db.select({ status: transactions.status }).from(transactions).where(eq(transactions.idTransaccion, sel.idTransaccion));
    expect(afterFirst?.status).toBe('pending');
    // The member pays on the second form: it goes through.
    expect(await postReturn(target, await useCardForm(simUrl, second.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    expect((await checkInvariants(t.database.db, before, { provider: store })).violations).toEqual([]);
    // And once every form of a transaction is abandoned, the transaction does expire.
    const again = await listar(target, rut);
    const next = [oldestOf(again.productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)];
    const abandoned = await seleccionar(target, again.token, rut, next);
    for (let i = 0; i < 2; i++) await startCard(target, { token: again.token, rut }, { idTransaccion: abandoned.idTransaccion, producto: next });
    await age();
    await t.app.services.card.reconcileOnce();
    const [expired] = await t.database.db.select({ status: transactions.status }).from(transactions).where(eq(transactions.idTransaccion, abandoned.idTransaccion));
    expect(expired?.status).toBe('expired');
  });
});
