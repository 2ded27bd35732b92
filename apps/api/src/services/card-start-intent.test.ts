import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { auditLog, transactions, webpayAttempts } from '../db/schema';
import { createWebpayClient, type WebpayClient } from './webpay-client';
import { listProducts, oldest, postSeleccionar, productNumbered } from '../../test/support/member-calls';
import { DATABASE_KINDS, seededSnapshot, TEST_ADMIN_TOKEN, type SeededSnapshot, type TestApp } from '../../test/support/test-app';
import { FlowStop, listar, oldestOf, seleccionar, startCard } from '../../test/reliability/flows';
import { injectTarget } from '../../test/reliability/http';

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const VISA = '4051885600446623';

// Call 10 records its intent, asks Webpay with no transaction open, and records the outcome (decision 044). These
// tests stop it between the two, as a crash would, and check that the reconciliation finishes what was left.
describe.each(DATABASE_KINDS)('the card form’s intent, Webpay’s create, and its outcome on %s', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  let simUrl: string;
  let seeded: SeededSnapshot;
  let webpayConfig: Config['webpay'];
  const store = new SimStore();
  /** What the process does once Webpay's create has answered: carry on, or die before recording it. */
  let crashAfterCreate = false;
  /** Where the app's Webpay client points: the simulator, or somewhere that answers nothing. */
  let client: WebpayClient;

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    webpayConfig = { baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 2_000, settleAfterSeconds: 0, reconcileIntervalSeconds: 0 };
    seeded = await seededSnapshot(kind);
  });
  afterAll(async () => {
    await seeded?.close();
    await sim?.close();
  });
  beforeEach(async () => {
    crashAfterCreate = false;
    client = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 2_000 });
    const webpay: WebpayClient = {
      create: async (...args) => {
        const created = await client.create(...args);
        // The process dies here: Webpay made the form, and its token is lost with the process.
        if (crashAfterCreate) throw new Error('process ended before recording Webpay’s answer');
        return created;
      },
      commit: (token) => client.commit(token),
      status: (token) => client.status(token),
      refund: (...args) => client.refund(...args),
    };
    t = await seeded.start({ webpay, config: { webpay: webpayConfig } });
  });
  afterEach(async () => {
    await t?.close();
  });

  async function select(rut: string, numeroProducto: string) {
    const { token, productos } = await listProducts(t.app, rut);
    const product = productNumbered(productos, numeroProducto);
    const sel = (await postSeleccionar(t.app, token, rut, [oldest(product, 1)])).json().seleccionarProductoResponse;
    const auth = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${token}` }, payload: { idTransaction: sel.idTransaccion } });
    const hostToken = auth.json().token as string;
    const initMall = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/pagoexpress/initMall',
        headers: { authorization: `Bearer ${hostToken}` },
        payload: {
          sessionId: `${token}${rut}`,
          transactionId: sel.idTransaccion,
          storesTransaction: [{ amount: sel.montoTotal, commerceCode: '597055555536', transactionId: product.numeroProducto }],
        },
      });
    return { idTransaccion: sel.idTransaccion as string, initMall };
  }

  const attemptsOf = (idTransaccion: string) =>
    t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.idTransaccion, idTransaccion)).orderBy(webpayAttempts.createdAt);
  const statusOf = async (idTransaccion: string) => (await t.database.db.select().from(transactions).where(eq(transactions.idTransaccion, idTransaccion)))[0]?.status;
  const form = (url: string, fields: Record<string, string>) =>
    sim.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

  it('leaves the intent when the process dies after Webpay’s create, and the reconciliation closes it; the member pays on a new form', async () => {
    const { idTransaccion, initMall } = await select('11111111-1', '630055667788');
    crashAfterCreate = true;
    const crashed = await initMall();
    expect(crashed.statusCode).toBe(500);
    const [intent] = await attemptsOf(idTransaccion);
    // Recorded before Webpay was asked: its buy order and stores, no token.
    expect(intent).toMatchObject({ status: 'creating', token: null });
    expect(intent!.stores).toHaveLength(1);
    // Webpay did make it: a form nobody holds.
    expect(store.all().filter((s) => s.buyOrder === intent!.buyOrder)).toHaveLength(1);
    expect(await statusOf(idTransaccion)).toBe('pending');

    crashAfterCreate = false;
    const [a, b] = await Promise.all([t.app.services.card.reconcileOnce(), t.app.services.card.reconcileOnce()]);
    expect(a.settled + b.settled).toBe(1);
    const [closed] = await attemptsOf(idTransaccion);
    expect(closed).toMatchObject({ buyOrder: intent!.buyOrder, status: 'not_opened', token: null });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'webpay.init.cerrado'));
    expect(audit.map((e) => e.detail)).toEqual([{ idTransaccion, buyOrder: intent!.buyOrder }]);
    // Nothing was charged, and the transaction is still the member's to pay.
    expect(await statusOf(idTransaccion)).toBe('pending');
    expect((await t.app.services.card.reconcileOnce()).settled).toBe(0);

    const again = await initMall();
    expect(again.statusCode).toBe(200);
    const webpayToken = again.json().token as string;
    const back = await form('/webpayserver/pay', { token: webpayToken, card: VISA, expiry: '12/29', cvv: '123' });
    const res = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/webpay/return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `token_ws=${webpayToken}` });
    expect(back.statusCode).toBe(200);
    expect(res.headers.location).toBe(`/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${idTransaccion}`);
    expect((await attemptsOf(idTransaccion)).map((x) => x.status)).toEqual(['not_opened', 'committed']);
  });

  it('counts an intent still waiting for Webpay against the savings ceiling, and gives the room back once it is closed', async () => {
    const set = await t.app.inject({ method: 'PUT', url: '/admin/parametros/topeDepositoWebPayAH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { valor: '12000' } });
    expect(set.statusCode).toBe(200);
    const target = injectTarget(t.app);
    /** A card deposit into the member's savings account, from a session of its own. */
    const deposit = async (amount: number) => {
      const { token, productos } = await listar(target, '11111111-1');
      const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 1, amount)];
      const sel = await seleccionar(target, token, '11111111-1', producto);
      return startCard(target, { token, rut: '11111111-1' }, { idTransaccion: sel.idTransaccion, producto }).then(
        () => 'opened',
        (error: unknown) => (error instanceof FlowStop ? error.message : Promise.reject(error)),
      );
    };
    crashAfterCreate = true;
    expect(await deposit(7_000)).toMatch(/500/);
    crashAfterCreate = false;
    // The intent counts as an open form: 7.000 more would pass the ceiling.
    expect(await deposit(7_000)).toMatch(/505/);
    await t.app.services.card.reconcileOnce();
    expect(await deposit(7_000)).toBe('opened');
  });

  it('records Webpay’s refusal and its silence as forms never opened, answering 502 and 503', async () => {
    const refused = await select('11111111-1', '630055667788');
    client = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: 'not-the-key', timeoutMs: 2_000 });
    const r = await refused.initMall();
    expect(r.json()).toMatchObject({ code: 502 });
    expect((await attemptsOf(refused.idTransaccion)).map((x) => [x.status, x.token])).toEqual([['not_opened', null]]);

    const silent = await select('9876543-3', '410098765431');
    // A port nobody listens on: no answer at all.
    client = createWebpayClient({ baseUrl: 'http://127.0.0.1:9', commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 500 });
    const s = await silent.initMall();
    expect(s.json()).toMatchObject({ code: 503 });
    expect((await attemptsOf(silent.idTransaccion)).map((x) => [x.status, x.token])).toEqual([['not_opened', null]]);
    // Both transactions stay payable, and the reconciliation has nothing to do for them.
    expect([await statusOf(refused.idTransaccion), await statusOf(silent.idTransaccion)]).toEqual(['pending', 'pending']);
    expect((await t.app.services.card.reconcileOnce()).settled).toBe(0);
  });
});
