import { buildSimulator } from '@pago/webpay-sim/app';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { accounts, members, sessions, transactions } from '../../src/db/schema';
import { createWebpayClient } from '../../src/services/webpay-client';
import { errorCode, listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar } from '../support/member-calls';
import { DATABASE_KINDS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { oldestOf, startCard, useCardForm, VISA_APPROVED } from './flows';
import { injectTarget, jsonOf } from './http';
import { recordFigures } from './settings';

// The operator's switches close payments already under way, and a payment nobody can finish does not stay pending.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const RUT = '11111111-1';
const CARD = demoCoordinateCard(RUT);

describe.each(DATABASE_KINDS)('payments under way and the operator’s switches (%s)', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  let simUrl: string;
  let attacks = 0;

  beforeEach(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test' });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const webpay = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
    t = await startTestApp(kind, { webpay, config: { altchaCounter: { min: 10, max: 50 } } });
  });
  afterEach(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: attacks });
    attacks = 0;
    await t?.close();
    await sim?.close();
  });

  const setParameter = async (nombre: string, valor: string) => {
    const res = await t.app.inject({ method: 'PUT', url: `/admin/parametros/${nombre}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { valor } });
    expect(res.statusCode).toBe(200);
  };
  const balance = async () => (await t.database.db.select({ saldo: accounts.saldo }).from(accounts).innerJoin(members, eq(members.id, accounts.memberId)).where(eq(members.rut, RUT)))[0]!.saldo;
  const statusOf = async (id: string) => (await t.database.db.select({ status: transactions.status }).from(transactions).where(eq(transactions.idTransaccion, id)))[0]!.status;

  it('refuses calls 4, 5 and 6 with the spec’s codes once payments close, moving nothing, and pays once they reopen', async () => {
    attacks++;
    const { token, productos } = await listProducts(t.app, RUT);
    await postSeleccionar(t.app, token, RUT, [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
    const before = await balance();

    await setParameter('Mantencion', '1');
    expect(errorCode(await postAutentica(t.app, token, RUT, '1234'), 'autenticaConsultaFactoresResponse')).toBe('503');
    await setParameter('Mantencion', '0');
    const numeroCuenta = (await postAutentica(t.app, token, RUT, '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta as string;

    await setParameter('CierreDiario', '1');
    expect(errorCode(await postAutorizar(t.app, token, RUT, RUT, 1), 'autorizarPagoProductoCVResponse')).toBe('4953');
    await setParameter('CierreDiario', '0');
    const cells = ((await postAutorizar(t.app, token, RUT, RUT, 1)).json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[]).map((i) => CARD[i.valor]!);

    await setParameter('PC', '0');
    expect(errorCode(await postPagar(t.app, { token, rutTitular: RUT, rutPago: RUT, numeroCuenta, factor: 1, valores: cells }), 'pagarProductoCVResponse')).toBe('49010');
    expect(await balance()).toBe(before);
    await setParameter('PC', '1');
    const paid = await postPagar(t.app, { token, rutTitular: RUT, rutPago: RUT, numeroCuenta, factor: 1, valores: cells });
    expect(paid.json().pagarProductoCVResponse.error).toBeUndefined();
    expect(await balance()).toBeLessThan(before);
  });

  it('refuses call 10 once payments close, and a payment-host token whose session ended', async () => {
    attacks++;
    const target = injectTarget(t.app);
    const { token, productos } = await listProducts(t.app, RUT);
    const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1)];
    const sel = (await postSeleccionar(t.app, token, RUT, producto)).json().seleccionarProductoResponse;
    const auth = jsonOf<{ token: string }>(
      await target.request({ method: 'POST', url: '/api/pagoexpress/auth', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ idTransaction: sel.idTransaccion }) }),
    );
    const initMall = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/pagoexpress/initMall',
        headers: { authorization: `Bearer ${auth.token}` },
        payload: { sessionId: token, transactionId: sel.idTransaccion, storesTransaction: [{ amount: sel.montoTotal, commerceCode: '597055555536', transactionId: producto[0]!.numeroProducto }] },
      });
    await setParameter('Mantencion', '1');
    expect((await initMall()).json()).toMatchObject({ code: 503 });
    await setParameter('Mantencion', '0');
    await t.database.db.update(sessions).set({ lastSeenAt: sql`now() - interval '1 hour'` }).where(eq(sessions.rut, RUT));
    expect((await initMall()).json()).toMatchObject({ code: 476 });
  });

  it('expires a pending transaction once its session ended, unless a Webpay form of it is still open', async () => {
    attacks++;
    const target = injectTarget(t.app);
    const { token, productos } = await listProducts(t.app, RUT);
    const pc = productos.find((p) => p.tipoFamiliaProducto === 'PC')!;
    const abandoned = (await postSeleccionar(t.app, token, RUT, [oldest(pc, 1)])).json().seleccionarProductoResponse.idTransaccion as string;
    const pm = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1)];
    const onForm = (await postSeleccionar(t.app, token, RUT, pm)).json().seleccionarProductoResponse.idTransaccion as string;
    const started = await startCard(target, { token, rut: RUT }, { idTransaccion: onForm, producto: pm });

    await t.app.scheduler.runNow('transaction-expiry');
    expect(await statusOf(abandoned)).toBe('pending');
    await t.database.db.update(sessions).set({ lastSeenAt: sql`now() - interval '1 hour'` }).where(and(eq(sessions.rut, RUT)));
    await t.app.scheduler.runNow('transaction-expiry');
    expect(await statusOf(abandoned)).toBe('expired');
    expect(await statusOf(onForm)).toBe('pending');
    // Money Webpay takes is applied whatever happened to the session: the member pays on the open form.
    const fields = await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED });
    const back = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/webpay/return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    expect(back.headers.location).toContain('estado=aprobado');
    expect(await statusOf(onForm)).toBe('paid');
  });
});
