import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import type { WebpayAttemptStatus } from '@pago/domain/payment-states';
import { WEBPAY_ATTEMPT_WORDS, wordsOf } from '@pago/domain/state-words';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, operatorChanges, webpayAttempts } from '../db/schema';
import { createWebpayClient } from '../services/webpay-client';
import { listar, oldestOf, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from '../../test/reliability/flows';
import { injectTarget } from '../../test/reliability/http';
import { asOperator, operatorSession, type OperatorSession } from '../../test/support/operator-session';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN, testConfig } from '../../test/support/test-app';

// What Webpay does with a refund, told where it happens: the member's return page ('Devolución en curso', 'Cargo
// retenido'), the staff's words of the charge, and the operator change that asked for a manual refund, also when
// Webpay answers only later, through the reconciliation. Driven by the Webpay simulator's own refusals and delays.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const RUT = '11111111-1';
const REFUSED = 'Webpay rechazó la devolución: pasó el plazo de 90 días para anular el cobro';

describe.each(DATABASE_KINDS)('refunds Webpay refuses or answers late, on %s', (kind) => {
  let sim: FastifyInstance;
  let simUrl = '';
  // The client gives up after a second: a refund the simulator answers later than that is "no answer" here.
  const webpay = {
    create: (...args: Parameters<ReturnType<typeof createWebpayClient>['create']>) => client().create(...args),
    commit: (token: string) => client().commit(token),
    status: (token: string) => client().status(token),
    refund: (...args: Parameters<ReturnType<typeof createWebpayClient>['refund']>) => client().refund(...args),
  };
  const client = () => createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 1_000 });

  beforeEach(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store: new SimStore() });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
  });
  // A form holds its instalments for no time here: a second session's form, opened once the first one's hold lapsed.
  const t = appPerTest(kind, { webpay, config: { altchaCounter: { min: 10, max: 50 }, webpay: { ...testConfig().webpay, settleAfterSeconds: 0 } } });
  afterEach(async () => {
    await sim.close();
  });

  const target = () => injectTarget(t.app);
  const op = () => t.app.operator;
  const faults = async (switches: { refundLatencyMs?: number; refuseRefundsNext?: number }) => {
    const res = await sim.inject({ method: 'POST', url: '/__sim/faults', payload: switches });
    expect(res.statusCode).toBe(200);
  };
  const attemptOf = async (buyOrder: string) => (await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.buyOrder, buyOrder)))[0]!;
  /** What staff read of the transaction's card charges (the admin API's transaction view, in the domain's words). */
  const staffReads = async (idTransaccion: string) => {
    const view = await op().inject({ method: 'GET', url: `/admin/transacciones/${idTransaccion}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(view.statusCode).toBe(200);
    const webpayRows = Object.values(view.json())[0] as { webpay: { ordenCompra: string; estado: WebpayAttemptStatus }[] };
    return Object.fromEntries(webpayRows.webpay.map((w) => [w.ordenCompra, wordsOf(WEBPAY_ATTEMPT_WORDS, w.estado)]));
  };
  /** Lets the reconciliation look at the attempt again now (it waits 30 s after each look). */
  const reconcileNow = async (buyOrder: string) => {
    await t.database.db.update(webpayAttempts).set({ checkedAt: sql`now() - interval '1 minute'` }).where(eq(webpayAttempts.buyOrder, buyOrder));
    await t.app.services.card.reconcileOnce();
  };

  /**
   * Two sessions of the member pay the same MYPE instalment by card, each on its own form. The first is applied; the second charge cannot be kept and is refunded as the member comes back.
   * Answers the member's return page's estado for the second.
   */
  async function chargedTwice(before: () => Promise<void>) {
    const open = async () => {
      const { token, productos } = await listar(target(), RUT);
      const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1)];
      const sel = await seleccionar(target(), token, RUT, producto);
      return { idTransaccion: sel.idTransaccion, ...(await startCard(target(), { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto })) };
    };
    const first = await open();
    const second = await open();
    expect(await postReturn(target(), await useCardForm(simUrl, first.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    const fields = await useCardForm(simUrl, second.webpayToken, { card: VISA_APPROVED });
    await before();
    const estado = await postReturn(target(), fields);
    const [attempt] = await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, second.webpayToken));
    return { idTransaccion: second.idTransaccion, estado, buyOrder: attempt!.buyOrder };
  }

  const propose = (session: OperatorSession, ordenCompra: string) =>
    op().inject({ method: 'POST', url: `/admin/webpay/${ordenCompra}/devolver`, headers: asOperator(session), payload: { motivo: 'Cobro doble de un depósito' } });
  const approve = (session: OperatorSession, id: string) => op().inject({ method: 'POST', url: `/admin/cambios/${id}/aprobar`, headers: asOperator(session) });
  const changeOf = async (id: string) => (await t.database.db.select().from(operatorChanges).where(eq(operatorChanges.id, id)))[0]!;

  it('tells a refund the simulator answers late as under way (Devolución en curso), then given back once the reconciliation learns it', async () => {
    const { idTransaccion, estado, buyOrder } = await chargedTwice(() => faults({ refundLatencyMs: 2_000 }));
    // The member's page for 'reembolso' is 'Devolución en curso' (cancel-voucher-page.tsx); staff read the same.
    expect(estado).toBe('reembolso');
    expect((await staffReads(idTransaccion))[buyOrder]).toBe('Cobrado, devolución pendiente');
    await faults({ refundLatencyMs: 0 });
    // The simulator made the late refund meanwhile: the reconciliation finds nothing held, and says given back.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await reconcileNow(buyOrder);
    expect((await attemptOf(buyOrder)).status).toBe('refunded');
    expect((await staffReads(idTransaccion))[buyOrder]).toBe('Cobrado y devuelto');
  });

  it('tells a refund the simulator refuses as held (Cargo retenido), for the member and for staff, with Webpay’s reason in the trail', async () => {
    const { idTransaccion, estado, buyOrder } = await chargedTwice(() => faults({ refuseRefundsNext: 1 }));
    expect(estado).toBe('retenido');
    expect((await attemptOf(buyOrder)).status).toBe('set_aside');
    expect((await staffReads(idTransaccion))[buyOrder]).toBe('Cobrado y retenido: Webpay rechazó la devolución');
    const [held] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.kind, 'webpay.apartado'), sql`${auditLog.detail}->>'buyOrder' = ${buyOrder}`));
    expect(held?.detail).toMatchObject({ motivo: REFUSED, mensajeWebpay: 'Refund period exceeded (90 days)' });
  });

  it('records on the approved change a manual refund Webpay gives back only later: the result follows the reconciliation', async () => {
    const { buyOrder } = await chargedTwice(() => faults({ refuseRefundsNext: 1 }));
    const maker = await operatorSession(op(), 'finanzas');
    const cambio = (await propose(maker, buyOrder)).json().consolaResponse.cambio;
    await faults({ refundLatencyMs: 2_000 });
    const approved = await approve(await operatorSession(op(), 'finanzas2'), cambio.id);
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ estado: 'aprobado', resultado: { devolucion: 'Webpay no respondió: la conciliación la reintenta' } });
    expect((await attemptOf(buyOrder)).status).toBe('refund_due');
    await faults({ refundLatencyMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await reconcileNow(buyOrder);
    expect((await attemptOf(buyOrder)).status).toBe('refunded');
    const change = await changeOf(cambio.id);
    expect(change.status).toBe('aprobado');
    expect(change.result).toMatchObject({ enWebpay: expect.any(Number), devolucion: 'Devuelto por Webpay' });
    // The console's inbox says the same.
    const inbox = (await op().inject({ method: 'GET', url: '/admin/cambios', headers: { cookie: maker.cookie } })).json().cambiosResponse.cambios;
    expect(inbox.find((c: { id: string }) => c.id === cambio.id)).toMatchObject({ estado: 'aprobado', resultado: { devolucion: 'Devuelto por Webpay' } });
  });

  it('fails the approved change when Webpay refuses the manual refund only later, with its reason, once, and lets it be proposed again', async () => {
    const { idTransaccion, buyOrder } = await chargedTwice(() => faults({ refuseRefundsNext: 1 }));
    const maker = await operatorSession(op(), 'finanzas');
    const cambio = (await propose(maker, buyOrder)).json().consolaResponse.cambio;
    // No answer at the approval (the client gave up; the simulator then refuses it): the reconciliation asks again.
    await faults({ refundLatencyMs: 2_000, refuseRefundsNext: 1 });
    const approved = await approve(await operatorSession(op(), 'finanzas2'), cambio.id);
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ estado: 'aprobado', resultado: { devolucion: 'Webpay no respondió: la conciliación la reintenta' } });
    // The simulator's late refusal lands first; then it refuses the reconciliation's try too.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await faults({ refundLatencyMs: 0, refuseRefundsNext: 1 });
    await reconcileNow(buyOrder);
    expect((await attemptOf(buyOrder)).status).toBe('set_aside');
    const change = await changeOf(cambio.id);
    expect(change.status).toBe('fallido');
    expect(change.result).toMatchObject({ devolucion: 'Rechazada por Webpay', motivoWebpay: REFUSED, devuelto: 0 });
    const failed = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'webpay.devolucion.manual.rechazada'));
    expect(failed.map((f) => f.detail)).toEqual([expect.objectContaining({ idTransaccion, buyOrder, operador: 'Fernanda Finanzas', aprobadoPor: 'Felipe Finanzas', cambio: cambio.id, motivoWebpay: REFUSED })]);
    // Another look changes nothing more; the charge may be proposed again.
    await reconcileNow(buyOrder);
    expect((await changeOf(cambio.id)).status).toBe('fallido');
    expect((await propose(maker, buyOrder)).statusCode).toBe(202);
  });
});
