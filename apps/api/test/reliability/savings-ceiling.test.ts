import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, members, products, transactions } from '../../src/db/schema';
import { createWebpayClient } from '../../src/services/webpay-client';
import { DATABASE_KINDS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { FlowStop, listar, oldestOf, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from './flows';
import { injectTarget, type Target } from './http';
import { recordFigures } from './settings';

// A card cannot tell whose savings account it pays into, so anyone who knows a RUT could deposit into its member's
// account again and again: card deposits into one account are bounded in 24 hours.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const RUT = '12345678-5';

describe.each(DATABASE_KINDS)('card deposits into a savings account have a ceiling (%s)', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  let simUrl: string;
  let target: Target;
  let attacks = 0;

  beforeEach(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store: new SimStore() });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const webpay = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
    t = await startTestApp(kind, { webpay, config: { altchaCounter: { min: 10, max: 50 } } });
    target = injectTarget(t.app);
    const res = await t.app.inject({ method: 'PUT', url: '/admin/parametros/topeDepositoWebPayAH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { valor: '12000' } });
    expect(res.statusCode).toBe(200);
  });
  afterEach(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: attacks });
    attacks = 0;
    await t?.close();
    await sim?.close();
  });

  const balance = async () =>
    (await t.database.db.select({ saldo: products.saldo }).from(products).innerJoin(members, eq(members.id, products.memberId)).where(and(eq(members.rut, RUT), eq(products.family, 'AH'))))[0]!.saldo;
  /** A stranger who knows the RUT opens a card form for a deposit into its savings account. */
  async function openDeposit(amount: number) {
    const { token, productos } = await listar(target, RUT);
    const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 1, amount)];
    const sel = await seleccionar(target, token, RUT, producto);
    return startCard(target, { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
  }
  const refusal = async (amount: number) => {
    try {
      await openDeposit(amount);
      return 'opened';
    } catch (error) {
      if (error instanceof FlowStop) return error.message;
      throw error;
    }
  };
  const ceilingLines = () => t.database.db.$count(auditLog, eq(auditLog.kind, 'webpay.tope.ahorro'));

  it('refuses a deposit that would take the account past the ceiling, counting paid and open forms alike', async () => {
    attacks++;
    const before = await balance();
    const paid = await openDeposit(5_000);
    expect(await postReturn(target, await useCardForm(simUrl, paid.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    // A second one left open on Webpay's form still counts.
    await openDeposit(5_000);
    expect(await refusal(5_000)).toMatch(/505/);
    expect(await ceilingLines()).toBe(1);
    // What still fits is accepted.
    expect(await refusal(2_000)).toBe('opened');
    expect(await balance()).toBe(before + 5_000);
    expect(await t.database.db.$count(transactions, eq(transactions.status, 'paid'))).toBe(1);
  });

  it('lets two deposits racing for the last room into one account through one at a time: one opens, one is refused', async () => {
    attacks++;
    const outcomes = await Promise.all([refusal(7_000), refusal(7_000)]);
    expect(outcomes.filter((o) => o === 'opened')).toHaveLength(1);
    expect(outcomes.filter((o) => /505/.test(o))).toHaveLength(1);
  });

  it('lets no stranger’s unpaid form hold back the member’s own deposit, while open forms stay bounded', async () => {
    attacks++;
    const setCeiling = await t.app.inject({ method: 'PUT', url: '/admin/parametros/topeDepositoWebPayAH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { valor: '5000000' } });
    expect(setCeiling.statusCode).toBe(200);
    // Anyone with the RUT opens a $4.999.999 deposit form and leaves it open.
    expect(await refusal(4_999_999)).toBe('opened');
    // The member's own $20.000 deposit, in a session of their own, opens and is paid.
    const own = await openDeposit(20_000);
    const before = await balance();
    expect(await postReturn(target, await useCardForm(simUrl, own.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    expect(await balance()).toBe(before + 20_000);
    // Another stranger's large form is still refused: unpaid forms of other sessions hold up to half the ceiling.
    expect(await refusal(4_999_999)).toMatch(/505/);
    expect(await refusal(2_400_000)).toBe('opened');
  });
});
