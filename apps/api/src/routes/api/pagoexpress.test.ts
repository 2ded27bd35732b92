import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { instalments, products, transactions, vouchers, webpayAttempts } from '../../db/schema';
import { createWebpayClient, type WebpayClient } from '../../services/webpay-client';
import { errorCode, listProducts, oldest, postConsultarPago, postSeleccionar, productNumbered } from '../../../test/support/member-calls';
import type { Config } from '../../config';
import { DATABASE_KINDS, seededSnapshot, type SeededSnapshot, type TestApp } from '../../../test/support/test-app';

const VISA = '4051885600446623';
const MASTERCARD_REJECTED = '5186059559590568';

describe.each(DATABASE_KINDS)('card payment through Webpay Plus Mall on %s', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  let commits = 0;
  let counting: WebpayClient;
  let webpayConfig: Config['webpay'];
  let seeded: SeededSnapshot;
  const store = new SimStore();

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    const simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const real = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C', timeoutMs: 5_000 });
    // The provider is outside: count what reaches it, change nothing.
    counting = { ...real, commit: (token) => (commits++, real.commit(token)) };
    webpayConfig = { baseUrl: simUrl, commerceCode: '597055555535', apiKey: 'x', timeoutMs: 5_000, settleAfterSeconds: 0, reconcileIntervalSeconds: 0 };
    seeded = await seededSnapshot(kind);
  });
  afterAll(async () => {
    await seeded?.close();
    await sim?.close();
  });
  // Each test pays on its own copy of the seeded members.
  beforeEach(async () => {
    t = await seeded.start({ webpay: counting, config: { webpay: webpayConfig } });
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

  /** Selects, then calls auth and initMall as the browser does; answers Webpay's token. */
  async function startCardPayment(rut: string, numeroProducto: string, count = 1) {
    const { token, productos } = await listProducts(t.app, rut);
    const product = productNumbered(productos, numeroProducto);
    const sel = (await postSeleccionar(t.app, token, rut, [oldest(product, count)])).json().seleccionarProductoResponse;
    const auth = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${token}` }, payload: { idTransaction: sel.idTransaccion } });
    const hostToken = auth.json().token as string;
    const init = await t.app.inject({
      method: 'POST',
      url: '/api/pagoexpress/initMall',
      headers: { authorization: `Bearer ${hostToken}` },
      payload: {
        sessionId: `${token}${rut}`,
        transactionId: sel.idTransaccion,
        storesTransaction: [{ amount: sel.montoTotal, commerceCode: '597055555536', transactionId: product.numeroProducto }],
      },
    });
    return { session: token, idTransaccion: sel.idTransaccion as string, total: sel.montoTotal as number, auth, init, webpayToken: init.json().token as string };
  }

  const form = (url: string, fields: Record<string, string>) =>
    sim.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

  /** The hidden fields of the simulator's auto-posted return form. */
  const returnFields = (html: string) => Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));

  const postReturn = (fields: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/pagoexpress/webpay/return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

  it('pays a PM instalment with the approved VISA card, once, and answers the voucher', async () => {
    const { session, idTransaccion, total, webpayToken, init } = await startCardPayment('11111111-1', '630055667788');
    expect(init.json().url).toBe('http://sim.test/webpayserver/initTransaction');
    const back = await form('/webpayserver/pay', { token: webpayToken, card: VISA, expiry: '12/29', cvv: '123' });
    const fields = returnFields(back.body);
    expect(fields).toEqual({ token_ws: webpayToken });
    const before = commits;
    const res = await postReturn(fields);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${idTransaccion}`);
    expect(await pendingOf('630055667788')).toEqual([10]);

    // Webpay (or an impatient browser) sends the same return again, also at once: it is committed once only.
    const replays = await Promise.all([postReturn(fields), postReturn(fields), postReturn(fields)]);
    expect(replays.every((r) => r.headers.location === res.headers.location)).toBe(true);
    expect(commits - before).toBe(1);
    expect(await pendingOf('630055667788')).toEqual([10]);

    const voucher = (await postConsultarPago(t.app, session, idTransaccion)).json().consultarPagoResponse.listaPago.pago;
    expect(voucher).toMatchObject({ medioPago: 'WEBPAY', cuentaPago: '**** 6623', idTransaccion });
    expect(voucher.detallePago.montoPagado).toBe(total);
  });

  it('refuses selecting again (443) what an open Webpay form is paying, until the form ends; a selection alone holds nothing', async () => {
    // Webpay's form holds its instalments as long as it may still be paid: the settling delay of production.
    await t.close();
    t = await seeded.start({ webpay: counting, config: { webpay: { ...webpayConfig, settleAfterSeconds: 420 } } });
    const rut = '11111111-1';
    const selectIn = async (numeroProducto: string) => {
      const { token, productos } = await listProducts(t.app, rut);
      return postSeleccionar(t.app, token, rut, [oldest(productNumbered(productos, numeroProducto), 1)]);
    };
    const idOf = (res: { json(): { seleccionarProductoResponse?: { idTransaccion?: string } } }) => res.json().seleccionarProductoResponse?.idTransaccion;

    // Selected in one session, abandoned: another session selects the same instalment.
    expect(idOf(await selectIn('630055667788'))).toMatch(/^[0-9a-f]{32}$/);
    expect(idOf(await selectIn('630055667788'))).toMatch(/^[0-9a-f]{32}$/);
    // One of them opens Webpay's form: nobody may select that instalment meanwhile, the rest stays free.
    const { webpayToken } = await startCardPayment(rut, '630055667788');
    expect(webpayToken).toBeTruthy();
    const refused = await selectIn('630055667788');
    expect(errorCode(refused, 'seleccionarProductoResponse')).toBe('443');
    expect(refused.body).toContain('Ya hay un pago en curso');
    expect(idOf(await selectIn('520011223344'))).toMatch(/^[0-9a-f]{32}$/);
    // Past the time its form may stay open (the reconciliation then settles it), the instalment is free again.
    await t.database.db.update(webpayAttempts).set({ createdAt: sql`now() - interval '8 minutes'` }).where(eq(webpayAttempts.token, webpayToken));
    expect(idOf(await selectIn('630055667788'))).toMatch(/^[0-9a-f]{32}$/);
  });

  it('frees the instalment at once when the member leaves Webpay with Anular', async () => {
    await t.close();
    t = await seeded.start({ webpay: counting, config: { webpay: { ...webpayConfig, settleAfterSeconds: 420 } } });
    const { webpayToken } = await startCardPayment('15432876-9', '630043218765');
    const aborted = await form('/webpayserver/abort', { token: webpayToken });
    await postReturn(returnFields(aborted.body));
    const { token, productos } = await listProducts(t.app, '15432876-9');
    const again = await postSeleccionar(t.app, token, '15432876-9', [oldest(productNumbered(productos, '630043218765'), 1)]);
    expect(again.json().seleccionarProductoResponse.idTransaccion).toMatch(/^[0-9a-f]{32}$/);
  });

  it('tells a card charge that could not be applied as given back (reembolsado), never as rejected', async () => {
    // Two sessions select the same instalment and each opens Webpay's form (a form open for no time holds nothing here).
    const first = await startCardPayment('14141414-3', '630014141414');
    const second = await startCardPayment('14141414-3', '630014141414');
    const pay = async (webpayToken: string) => postReturn(returnFields((await form('/webpayserver/pay', { token: webpayToken, card: VISA, expiry: '12/29', cvv: '123' })).body));
    expect((await pay(first.webpayToken)).headers.location).toBe(`/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${first.idTransaccion}`);
    const told = await pay(second.webpayToken);
    expect(told.headers.location).toBe(`/pagoexpress/webpayresult?estado=reembolsado&idTransaccion=${second.idTransaccion}`);
    expect(store.get(second.webpayToken)!.details[0]!.status).toBe('REVERSED');
    expect(await pendingOf('630014141414')).toEqual([16, 17]);
    // The same return again says the same.
    const again = await postReturn({ token_ws: second.webpayToken });
    expect(again.headers.location).toBe(told.headers.location);
  });

  it('leaves everything unpaid when the card is rejected', async () => {
    const { idTransaccion, webpayToken } = await startCardPayment('15432876-9', '630043218765');
    const back = await form('/webpayserver/pay', { token: webpayToken, card: MASTERCARD_REJECTED, expiry: '12/29', cvv: '123' });
    const res = await postReturn(returnFields(back.body));
    expect(res.headers.location).toBe(`/pagoexpress/webpayresult?estado=rechazado&idTransaccion=${idTransaccion}`);
    expect(await pendingOf('630043218765')).toEqual([5, 6]);
    const [trx] = await t.database.db.select().from(transactions).where(eq(transactions.idTransaccion, idTransaccion));
    expect(trx?.status).toBe('rejected');
  });

  it('cancels on Anular (TBK_TOKEN) and on a form timeout (TBK_ORDEN_COMPRA, told apart as expirado), by POST and GET', async () => {
    const aborted = await startCardPayment('9876543-3', '410098765431');
    const back = await form('/webpayserver/abort', { token: aborted.webpayToken });
    const fields = returnFields(back.body);
    expect(Object.keys(fields).sort()).toEqual(['TBK_ID_SESION', 'TBK_ORDEN_COMPRA', 'TBK_TOKEN']);
    const res = await postReturn(fields);
    expect(res.headers.location).toBe(`/pagoexpress/webpayresult?estado=anulado&idTransaccion=${aborted.idTransaccion}`);

    const timedOut = await startCardPayment('9876543-3', '410098765431');
    // The form's five minutes pass at Webpay.
    store.get(timedOut.webpayToken)!.createdAt -= 10 * 60_000;
    const [attempt] = await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, timedOut.webpayToken));
    const query = new URLSearchParams({ TBK_ORDEN_COMPRA: attempt!.buyOrder, TBK_ID_SESION: 'whatever' });
    const viaGet = await t.app.inject({ method: 'GET', url: `/api/pagoexpress/webpay/return?${query.toString()}` });
    expect(viaGet.headers.location).toBe(`/pagoexpress/webpayresult?estado=expirado&idTransaccion=${timedOut.idTransaccion}`);
    // The same return again says the same: the member cancelled nothing.
    const again = await t.app.inject({ method: 'GET', url: `/api/pagoexpress/webpay/return?${query.toString()}` });
    expect(again.headers.location).toBe(viaGet.headers.location);
    expect(await pendingOf('410098765431')).toEqual([7, 8]);
    const statuses = await t.database.db.select({ s: transactions.status }).from(transactions).where(sql`${transactions.idTransaccion} in (${aborted.idTransaccion}, ${timedOut.idTransaccion})`);
    expect(statuses.map((x) => x.s)).toEqual(['cancelled', 'cancelled']);
  });

  it('settles a payment approved on the form whose browser never came back, exactly once', async () => {
    const { idTransaccion, webpayToken } = await startCardPayment('14141414-3', '630014141414');
    await form('/webpayserver/pay', { token: webpayToken, card: VISA, expiry: '12/29', cvv: '123' });
    // No return: the browser was closed. Two replicas reconcile at once.
    const [a, b] = await Promise.all([t.app.services.card.reconcileOnce(), t.app.services.card.reconcileOnce()]);
    expect(a.settled + b.settled).toBe(1);
    expect(await pendingOf('630014141414')).toEqual([16, 17]);
    expect(await t.database.db.$count(vouchers, eq(vouchers.idTransaccion, idTransaccion))).toBe(1);
    expect((await t.app.services.card.reconcileOnce()).settled).toBe(0);
  });

  it('expires a card payment whose form was never used, charging nothing', async () => {
    const stale = await startCardPayment('16789012-1', '410016789012');
    // settleAfterSeconds is 0 here; in production it is longer than the form's 5 minutes.
    await t.app.services.card.reconcileOnce();
    const [trx] = await t.database.db.select().from(transactions).where(eq(transactions.idTransaccion, stale.idTransaccion));
    expect(trx?.status).toBe('expired');
    expect(await pendingOf('410016789012')).toEqual([4, 5, 6]);
  });

  it('refuses amounts or stores that differ from the selection, and other sessions’ transactions', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const pc = productNumbered(productos, '410087654321');
    const sel = (await postSeleccionar(t.app, token, '11111111-1', [oldest(pc, 1)])).json().seleccionarProductoResponse;
    const stranger = await listProducts(t.app, '9876543-3');
    const foreign = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${stranger.token}` }, payload: { idTransaction: sel.idTransaccion } });
    expect(foreign.json()).toMatchObject({ code: 515 });
    const auth = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${token}` }, payload: { idTransaction: sel.idTransaccion } });
    const hostToken = auth.json().token as string;
    const init = (stores: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/pagoexpress/initMall', headers: { authorization: `Bearer ${hostToken}` }, payload: { sessionId: 'x', transactionId: sel.idTransaccion, storesTransaction: stores } });
    expect((await init([{ amount: 1_000, commerceCode: '597055555536', transactionId: pc.numeroProducto }])).json()).toMatchObject({ code: 463 });
    expect((await init([{ amount: sel.montoTotal, commerceCode: '597055555537', transactionId: pc.numeroProducto }])).json()).toMatchObject({ code: 463 });
    // The product's own number, or its reference in another session, names no store of this transaction.
    const elsewhere = productNumbered((await listProducts(t.app, '11111111-1')).productos, '410087654321').numeroProducto;
    for (const transactionId of ['410087654321', elsewhere]) {
      expect((await init([{ amount: sel.montoTotal, commerceCode: '597055555536', transactionId }])).json()).toMatchObject({ code: 463 });
    }
    expect((await init([{ amount: sel.montoTotal, commerceCode: '597055555536', transactionId: pc.numeroProducto }])).json().token).toMatch(/^[0-9a-f]{64}$/);
    expect(await t.database.db.$count(webpayAttempts, eq(webpayAttempts.idTransaccion, sel.idTransaccion))).toBe(1);
  });

  it('offers the card for a mortgage only when its instalments are all past the grace days', async () => {
    const current = await listProducts(t.app, '11111111-1');
    const hi = current.productos.find((p) => p.tipoFamiliaProducto === 'HI')!;
    const sel = (await postSeleccionar(t.app, current.token, '11111111-1', [oldest(hi, 1)])).json().seleccionarProductoResponse;
    const refused = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${current.token}` }, payload: { idTransaction: sel.idTransaccion } });
    expect(refused.json()).toMatchObject({ code: 49010 });
    const overdue = await startCardPayment('9876543-3', '520098765432', 2);
    expect(overdue.auth.json()).toMatchObject({ code: 0 });
  });

  it('answers 400 with the envelope to malformed bodies and a return without known fields to the error page', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', payload: { idTransaction: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().authResponse.error.errores.detalleError.codigo).toBe('400');
    const res = await postReturn({ foo: 'bar' });
    expect(res.headers.location).toBe('/pagoexpress/webpayresult?estado=error');
    const unknown = await postReturn({ token_ws: 'f'.repeat(64) });
    expect(unknown.headers.location).toBe('/pagoexpress/webpayresult?estado=error');
  });
});
