import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, transactions, webpayAttempts } from '../../src/db/schema';
import { FLOOD_AFTER_REFUSED_RETURNS } from '../../src/services/card-return-service';
import { createWebpayClient, type WebpayClient } from '../../src/services/webpay-client';
import { productNumbered } from '../support/member-calls';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { listar, oldestOf, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from './flows';
import { injectTarget, type Target } from './http';
import { recordFigures } from './settings';

// Forged returns for one's own open card form, as fast as one address can send them: Webpay is asked about the form
// a few times at most, the audit trail gets one line with a count, and the client is limited; the member's own
// payment on that form still goes through.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const PER_MINUTE = 30;

describe.each(DATABASE_KINDS)('a flood of forged Webpay returns (%s)', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  let simUrl: string;
  let target: Target;
  let statusCalls = 0;
  const store = new SimStore();

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const real = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
    // Webpay is outside: count what reaches it, change nothing.
    const webpay: WebpayClient = { ...real, status: (token) => (statusCalls++, real.status(token)) };
    t = await startTestApp(kind, { webpay, rateLimits: { returnPerIp: PER_MINUTE }, config: { altchaCounter: { min: 10, max: 50 } } });
    target = injectTarget(t.app);
  });
  afterAll(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: 400, notes: 'forged Webpay returns' });
    await t?.close();
    await sim?.close();
  });

  it('asks Webpay once, audits once with a count, limits the client, and leaves the member’s form payable', async () => {
    const rut = '9876543-3';
    const { token, productos } = await listar(target, rut);
    const producto = [oldestOf(productNumbered(productos, '410098765431'), 1)];
    const sel = await seleccionar(target, token, rut, producto);
    const started = await startCard(target, { token, rut }, { idTransaccion: sel.idTransaccion, producto });
    const [attempt] = await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, started.webpayToken));

    // 400 returns saying the member pressed 'Anular' on a form they never left, from one address.
    const attacker = target.forClient!('127.0.9.9');
    const forged = { TBK_TOKEN: started.webpayToken, TBK_ORDEN_COMPRA: attempt!.buyOrder, TBK_ID_SESION: 'x' };
    const before = statusCalls;
    const answers = [];
    for (let i = 0; i < 400; i++) answers.push(await postReturn(attacker, forged));
    expect(new Set(answers)).toEqual(new Set(['pendiente']));
    // Webpay was asked about the form for the first few only: the rest came within the interval of the last question,
    // or over the client's limit.
    expect(statusCalls - before).toBe(FLOOD_AFTER_REFUSED_RETURNS);
    const audited = await t.database.db.$count(auditLog, and(eq(auditLog.kind, 'webpay.anulacion.rechazada'), sql`${auditLog.detail} ->> 'idTransaccion' = ${sel.idTransaccion}`));
    expect(audited).toBe(1);
    const [after] = await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, started.webpayToken));
    expect(after).toMatchObject({ status: 'pending', refusedReturns: FLOOD_AFTER_REFUSED_RETURNS });
    // Past the limit the client is sent to the result page with nothing done, and told when to come back.
    const limited = await attacker.request({ method: 'POST', url: '/api/pagoexpress/webpay/return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(forged).toString() });
    expect(limited.status).toBe(303);
    expect(limited.headers.location).toBe('/pagoexpress/webpayresult?estado=pendiente');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // The member, on their own connection, pays on the form: nothing the flood did stands in the way.
    expect(await postReturn(target.forClient!('127.0.1.1'), await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    const [trx] = await t.database.db.select({ status: transactions.status }).from(transactions).where(eq(transactions.idTransaccion, sel.idTransaccion));
    expect(trx?.status).toBe('paid');
  });
});
