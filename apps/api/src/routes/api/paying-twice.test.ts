import { demoCoordinateCard } from '@pago/domain/demo-members';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, instalments, products, transactions, webpayAttempts } from '../../db/schema';
import { createWebpayClient } from '../../services/webpay-client';
import { errorCode, listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar, productNumbered } from '../../../test/support/member-calls';
import type { Config } from '../../config';
import { DATABASE_KINDS, seededSnapshot, type SeededSnapshot, type TestApp } from '../../../test/support/test-app';

const RUT = '11111111-1';
const PM = '630055667788';
const VISA = '4051885600446623';

/**
 * The attack of issue 50: one member (or anyone with their RUT) in two tabs, the card form open in one while the
 * other pays from the cuenta vista. The server refuses (443) at every call of the second payment, not only at the
 * selection, so the instalment is charged once.
 */
describe.each(DATABASE_KINDS)('two sessions of one RUT paying one instalment on %s', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  let seeded: SeededSnapshot;
  let webpayConfig: Config['webpay'];
  const store = new SimStore();

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    const simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    // A form holds its instalments for the settling delay, as in production.
    webpayConfig = { baseUrl: simUrl, commerceCode: '597055555535', apiKey: '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C', timeoutMs: 5_000, settleAfterSeconds: 420, reconcileIntervalSeconds: 0 };
    seeded = await seededSnapshot(kind);
  });
  afterAll(async () => {
    await seeded?.close();
    await sim?.close();
  });
  beforeEach(async () => {
    t = await seeded.start({ webpay: createWebpayClient(webpayConfig), config: { webpay: webpayConfig } });
  });
  afterEach(async () => {
    await t?.close();
  });

  const pendingOf = async (numeroProducto: string) =>
    (await t.database.db
      .select({ cuota: instalments.numeroCuota })
      .from(instalments)
      .innerJoin(products, eq(products.id, instalments.productId))
      .where(and(eq(products.numeroProducto, numeroProducto), sql`${instalments.montoPendiente} > 0`))).map((r) => r.cuota);

  /** A tab that selected the oldest PM instalment. */
  async function tab() {
    const { token, productos } = await listProducts(t.app, RUT);
    const product = productNumbered(productos, PM);
    const sel = (await postSeleccionar(t.app, token, RUT, [oldest(product, 1)])).json().seleccionarProductoResponse;
    expect(sel.idTransaccion).toMatch(/^[0-9a-f]{32}$/);
    return { token, ref: product.numeroProducto, idTransaccion: sel.idTransaccion as string, total: sel.montoTotal as number };
  }

  /** Calls 4 and 5 of the own account: answers the account and the coordinate answers. */
  async function loggedIn(session: string) {
    const login = await postAutentica(t.app, session, RUT, '1234');
    const numeroCuenta = login.json().autenticaConsultaFactoresResponse.numeroCuenta as string;
    expect(numeroCuenta).toBeTruthy();
    const challenge = await postAutorizar(t.app, session, RUT, RUT, 1);
    const card = demoCoordinateCard(RUT);
    const valores = (challenge.json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
    return { numeroCuenta, valores };
  }

  const cardAuth = (s: { token: string; idTransaccion: string }) =>
    t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${s.token}` }, payload: { idTransaction: s.idTransaccion } });
  const initMall = (hostToken: string, s: { token: string; ref: string; idTransaccion: string; total: number }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pagoexpress/initMall',
      headers: { authorization: `Bearer ${hostToken}` },
      payload: { sessionId: `${s.token}${RUT}`, transactionId: s.idTransaccion, storesTransaction: [{ amount: s.total, commerceCode: '597055555536', transactionId: s.ref }] },
    });
  const form = (url: string, fields: Record<string, string>) =>
    sim.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
  const returnFields = (html: string) => Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  const postReturn = (fields: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/pagoexpress/webpay/return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
  const stoppedAt = async () =>
    (await t.database.db.select({ detail: auditLog.detail, rut: auditLog.rutMasked }).from(auditLog).where(eq(auditLog.kind, 'pago.en_curso.rechazado'))).map((r) => (r.detail as { llamada: string }).llamada);

  it('refuses the own-account login, challenge and payment (443) while another tab has the card form open, and spends no coordinate answer', async () => {
    const own = await tab();
    const { numeroCuenta, valores } = await loggedIn(own.token);
    // The other tab selects (a selection alone holds nothing) and opens Webpay's form.
    const card = await tab();
    const hostToken = (await cardAuth(card)).json().token as string;
    const opened = await initMall(hostToken, card);
    const webpayToken = opened.json().token as string;
    expect(webpayToken).toMatch(/^[0-9a-f]{64}$/);

    // The first tab goes on: every call of its payment is refused while the form is open.
    const pay = () => postPagar(t.app, { token: own.token, rutTitular: RUT, rutPago: RUT, numeroCuenta, factor: 1, valores });
    const paid = await pay();
    expect(errorCode(paid, 'pagarProductoCVResponse')).toBe('443');
    expect(paid.body).toContain('Ya hay un pago en curso');
    expect(errorCode(await postAutorizar(t.app, own.token, RUT, RUT, 1), 'autorizarPagoProductoCVResponse')).toBe('443');
    expect(errorCode(await postAutentica(t.app, own.token, RUT, '1234'), 'autenticaConsultaFactoresResponse')).toBe('443');
    expect(await pendingOf(PM)).toEqual([9, 10]);
    const [ownTrx] = await t.database.db.select().from(transactions).where(eq(transactions.idTransaccion, own.idTransaccion));
    expect(ownTrx?.status).toBe('pending');
    // The trail says where each was stopped, under the member's masked RUT and the transaction.
    expect(await stoppedAt()).toEqual(['cuentavista/pagar', 'cuentavista/autorizar', 'cuentavista/autentica']);

    // The member leaves Webpay with Anular: the first tab pays with the same answers (none was spent), once.
    await postReturn(returnFields((await form('/webpayserver/abort', { token: webpayToken })).body));
    const after = await pay();
    expect(after.json().pagarProductoCVResponse.productoPagadoCV).toMatchObject({ idTransaccion: own.idTransaccion });
    expect(await pendingOf(PM)).toEqual([10]);
  });

  it('refuses the card form (443 at calls 9 and 10) while the other tab’s own-account debit is at the core', async () => {
    const own = await tab();
    const { numeroCuenta, valores } = await loggedIn(own.token);
    const card = await tab();
    const hostToken = (await cardAuth(card)).json().token as string;
    expect(hostToken).toBeTruthy();
    // The core answers slowly: the debit stays posting while the card tab asks for its form.
    await t.core.faults({ latencyMs: 1_500 });
    const paying = postPagar(t.app, { token: own.token, rutTitular: RUT, rutPago: RUT, numeroCuenta, factor: 1, valores });
    await expect.poll(async () => (await t.database.db.select().from(transactions).where(eq(transactions.idTransaccion, own.idTransaccion)))[0]?.status, { timeout: 10_000 }).toBe('posting');
    expect((await initMall(hostToken, card)).json()).toMatchObject({ code: 443 });
    expect((await cardAuth(card)).json()).toMatchObject({ code: 443 });
    expect(await t.database.db.$count(webpayAttempts, eq(webpayAttempts.idTransaccion, card.idTransaccion))).toBe(0);
    expect((await paying).json().pagarProductoCVResponse.productoPagadoCV).toMatchObject({ idTransaccion: own.idTransaccion });
    expect(await pendingOf(PM)).toEqual([10]);
    expect(await stoppedAt()).toEqual(['pagoexpress/initMall', 'pagoexpress/auth']);
  });

  it('lets one of a racing own-account payment and card form through, never both', async () => {
    for (let round = 0; round < 4; round++) {
      await t.close();
      t = await seeded.start({ webpay: createWebpayClient(webpayConfig), config: { webpay: webpayConfig } });
      const own = await tab();
      const { numeroCuenta, valores } = await loggedIn(own.token);
      const card = await tab();
      const hostToken = (await cardAuth(card)).json().token as string;
      const [paid, opened] = await Promise.all([postPagar(t.app, { token: own.token, rutTitular: RUT, rutPago: RUT, numeroCuenta, factor: 1, valores }), initMall(hostToken, card)]);
      const ownWon = errorCode(paid, 'pagarProductoCVResponse') === undefined;
      const cardWon = opened.json().code === undefined;
      expect([ownWon, cardWon].filter(Boolean)).toHaveLength(1);
      if (ownWon) {
        // Refused while the debit was at the core (443), or once it was booked (442: nothing left to pay).
        expect([443, 442]).toContain(opened.json().code);
        expect(await pendingOf(PM)).toEqual([10]);
      } else {
        expect(errorCode(paid, 'pagarProductoCVResponse')).toBe('443');
        // The card tab pays; the own account moved nothing.
        const back = await form('/webpayserver/pay', { token: opened.json().token as string, card: VISA, expiry: '12/29', cvv: '123' });
        expect((await postReturn(returnFields(back.body))).headers.location).toContain('estado=aprobado');
        expect(await pendingOf(PM)).toEqual([10]);
      }
    }
  });
});
