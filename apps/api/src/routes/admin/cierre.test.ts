import { businessNoon } from '@pago/domain/business-time';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SettableClock } from '../../clock';
import { auditLog, coreOperations, webpayAttempts } from '../../db/schema';
import { createWebpayClient } from '../../services/webpay-client';
import { isoToday } from '../../services/day-close-service';
import { listar, oldestOf, payOwnAccount, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from '../../../test/reliability/flows';
import { injectTarget } from '../../../test/reliability/http';
import { productNumbered } from '../../../test/support/member-calls';
import { asOperator, operatorSession, type OperatorSession } from '../../../test/support/operator-session';
import { appPerTest, DATABASE_KINDS } from '../../../test/support/test-app';

// The day's close, three-way (decision 049), against the Webpay and core simulators: its lines and totals, its
// causes, the two signatures, the re-check at approval, the reopening, the CSV, and who may do what.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

describe.each(DATABASE_KINDS)('the day close on %s', (kind) => {
  let sim: FastifyInstance;
  let simUrl = '';
  let webpay = createWebpayClient({ baseUrl: 'http://127.0.0.1:1', commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
  beforeEach(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store: new SimStore() });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    webpay = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
  });
  afterEach(async () => {
    await sim.close();
  });
  const t = appPerTest(kind, {
    webpay: { create: (...a) => webpay.create(...a), commit: (x) => webpay.commit(x), status: (x) => webpay.status(x), refund: (...a) => webpay.refund(...a) },
    config: { altchaCounter: { min: 10, max: 50 } },
  });
  const op = () => t.app.operator;
  const target = () => injectTarget(t.app);
  /** The business day the payments of a test are opened on (the database's clock, in Santiago). */
  const fecha = () => isoToday(new Date());
  /** The next day: the payments' day is over and may be closed. */
  const nextDay = () => (t.clock as SettableClock).set(new Date(businessNoon().getTime() + 86_400_000));

  const read = (session: OperatorSession, day = fecha()) => op().inject({ method: 'GET', url: `/admin/cierre?fecha=${day}`, headers: { cookie: session.cookie } });
  const propose = (session: OperatorSession, day = fecha()) =>
    op().inject({ method: 'POST', url: `/admin/cierre/${day}/firmar`, headers: asOperator(session), payload: { motivo: 'Revisado contra la cartola de Transbank' } });
  const approve = (session: OperatorSession, id: string) => op().inject({ method: 'POST', url: `/admin/cambios/${id}/aprobar`, headers: asOperator(session) });
  const refusal = (res: { json(): { cierreResponse?: unknown; cambiosResponse?: unknown } }) =>
    ((res.json().cierreResponse ?? res.json().cambiosResponse) as { error: { errores: { detalleError: { descripcion: string } } } }).error.errores.detalleError.descripcion;

  async function ownAccount(rut = '11111111-1', numero = '410012345678') {
    const { token, productos } = await listar(target(), rut);
    const sel = await seleccionar(target(), token, rut, [oldestOf(productNumbered(productos, numero), 1)]);
    await payOwnAccount(target(), { token, memberRut: rut, payerRut: rut, clave: '1234' });
    return sel.idTransaccion;
  }
  async function byCard(rut = '9876543-3', numero = '410098765431') {
    const { token, productos } = await listar(target(), rut);
    const producto = [oldestOf(productNumbered(productos, numero), 1)];
    const sel = await seleccionar(target(), token, rut, producto);
    const started = await startCard(target(), { token, rut }, { idTransaccion: sel.idTransaccion, producto });
    expect(await postReturn(target(), await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    const [attempt] = await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, started.webpayToken));
    return { idTransaccion: sel.idTransaccion, buyOrder: attempt!.buyOrder };
  }
  /** The card credits sent to the core now, as the postings job does once their back-off passed. */
  async function postCredits() {
    await t.database.db.update(coreOperations).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(coreOperations.status, 'pending'));
    await t.app.services.corePostings.postDue();
  }

  it('closes a day with an own-account and a card payment whose three sides agree, signed by two finance operators', async () => {
    const own = await ownAccount();
    const card = (await byCard()).idTransaccion;
    await postCredits();
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');

    const day = (await read(maker)).json().cierreResponse;
    expect(day.diferencias).toBe(0);
    expect(day.lineas).toHaveLength(2);
    const ownLine = day.lineas.find((l: { idTransaccion: string }) => l.idTransaccion === own);
    const cardLine = day.lineas.find((l: { idTransaccion: string }) => l.idTransaccion === card);
    expect(ownLine).toMatchObject({ medioPago: 'CUENTA VISTA', nuestro: { estado: 'paid' }, webpay: null, causas: [] });
    expect(ownLine.core.monto).toBe(ownLine.nuestro.monto);
    expect(ownLine.core.posteos).toEqual([expect.objectContaining({ tipo: 'cuenta_vista', estado: 'booked', montoCore: ownLine.nuestro.monto })]);
    expect(cardLine).toMatchObject({ medioPago: 'WEBPAY', nuestro: { estado: 'paid' }, causas: [] });
    expect(cardLine.webpay.tiendas).toEqual([expect.objectContaining({ estado: 'committed', monto: cardLine.nuestro.monto })]);
    expect([cardLine.webpay.monto, cardLine.core.monto]).toEqual([cardLine.nuestro.monto, cardLine.nuestro.monto]);
    // Each side's totals agree per family and per commerce code; an own-account payment carries no commerce code.
    for (const total of [...day.porFamilia, ...day.porCodigoComercio]) expect(total.core).toBe(total.nuestro);
    expect(day.porCodigoComercio).toEqual([
      { clave: cardLine.webpay.tiendas[0].codigoComercio, nuestro: cardLine.nuestro.monto, webpay: cardLine.nuestro.monto, core: cardLine.nuestro.monto },
      { clave: null, nuestro: ownLine.nuestro.monto, webpay: 0, core: ownLine.nuestro.monto },
    ]);
    expect(day.cierre).toEqual({ estado: 'abierto' });

    // Not while the day runs.
    const early = await propose(maker);
    expect(early.statusCode).toBe(409);
    expect(refusal(early)).toBe('Solo se cierra un día hábil ya terminado.');

    nextDay();
    const proposed = await propose(maker);
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().cierreResponse.cambio;
    expect(cambio).toMatchObject({ tipo: 'cierre_dia', objetivo: fecha(), estado: 'pendiente', propuestoPor: 'Fernanda Finanzas' });
    expect((await read(checker)).json().cierreResponse).toMatchObject({ cierre: { estado: 'abierto' }, propuesta: { id: cambio.id, propio: false } });
    expect((await propose(checker)).statusCode).toBe(409);

    // Nobody approves their own; an auditor reads the close but decides nothing.
    expect((await approve(maker, cambio.id)).statusCode).toBe(403);
    expect((await approve(await operatorSession(op(), 'auditor'), cambio.id)).statusCode).toBe(403);
    expect((await read(maker)).json().cierreResponse.cierre.estado).toBe('abierto');

    const approved = await approve(checker, cambio.id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ estado: 'aprobado', decididoPor: 'Felipe Finanzas', resultado: { cierre: 'Cerrado', lineas: 2 } });
    const closed = (await read(await operatorSession(op(), 'auditor'))).json().cierreResponse;
    expect(closed.cierre).toMatchObject({ estado: 'cerrado', cerradoPor: 'Felipe Finanzas', propuestoPor: 'Fernanda Finanzas' });
    expect(new Date(closed.cierre.cerrado).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(closed.propuesta).toBeNull();
    const again = await propose(maker);
    expect(again.statusCode).toBe(409);
    expect(refusal(again)).toBe('El día ya está cerrado.');
    const [signed] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'cierre.firmado'));
    expect(signed?.detail).toMatchObject({ fecha: fecha(), operador: 'Fernanda Finanzas', aprobadoPor: 'Felipe Finanzas', cambio: cambio.id });
  });

  it('refuses a day with a posting pending, and closes it once the core books it', async () => {
    const card = (await byCard()).idTransaccion;
    nextDay();
    const maker = await operatorSession(op(), 'finanzas2');
    const checker = await operatorSession(op(), 'finanzas');
    const day = (await read(maker)).json().cierreResponse;
    expect(day.diferencias).toBe(1);
    expect(day.lineas[0]).toMatchObject({ idTransaccion: card, causas: ['posteo_pendiente'], core: { monto: 0, posteos: [expect.objectContaining({ estado: 'pending', montoCore: null })] } });
    const refused = await propose(maker);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().cierreResponse.error.errores.detalleError).toEqual({ codigo: '400', descripcion: 'El día tiene diferencias sin resolver: se cierra cuando las tres partes coinciden.' });

    await postCredits();
    expect((await read(maker)).json().cierreResponse.diferencias).toBe(0);
    const cambio = (await propose(maker)).json().cierreResponse.cambio;
    expect((await approve(checker, cambio.id)).statusCode).toBe(200);
    expect((await read(maker)).json().cierreResponse.cierre).toMatchObject({ estado: 'cerrado', cerradoPor: 'Fernanda Finanzas' });
  });

  it('compares the day again at approval: a difference that appeared after the proposal stops the close', async () => {
    await ownAccount();
    nextDay();
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    const cambio = (await propose(maker)).json().cierreResponse.cambio;
    // A card payment of the same day whose credit the core has not booked yet.
    await byCard();
    const refused = await approve(checker, cambio.id);
    expect(refused.statusCode).toBe(409);
    expect(refusal(refused)).toContain('El día tiene diferencias sin resolver');
    expect((await read(maker)).json().cierreResponse.cierre.estado).toBe('abierto');
  });

  it('reopens a closed day when one of its payments changes, says why, and lets it be signed again', async () => {
    await ownAccount();
    nextDay();
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    const oldestOpen = async () => Number(/^pago_online_day_close_oldest_open_days (\d+)$/m.exec((await t.app.inject({ method: 'GET', url: '/metrics' })).body)?.[1]);
    expect(await oldestOpen()).toBe(1);
    expect((await approve(checker, (await propose(maker)).json().cierreResponse.cambio.id)).statusCode).toBe(200);
    expect((await read(maker)).json().cierreResponse.cierre.estado).toBe('cerrado');
    expect(await oldestOpen()).toBe(0);

    // A card payment of that day settled after its close (opened before midnight, paid after).
    const late = await byCard();
    const reopened = (await read(maker)).json().cierreResponse;
    expect(reopened.cierre).toMatchObject({ estado: 'reabierto', cerradoPor: 'Felipe Finanzas', motivo: 'El cobro con tarjeta ' + late.buyOrder + ' pasó a «Formulario de Webpay abierto, sin respuesta aún»' });
    expect(reopened.lineas.find((l: { idTransaccion: string }) => l.idTransaccion === late.idTransaccion).causas).toEqual(['posteo_pendiente']);
    expect(await oldestOpen()).toBe(1);

    await postCredits();
    const second = await propose(checker);
    expect(second.statusCode).toBe(202);
    expect((await approve(maker, second.json().cierreResponse.cambio.id)).statusCode).toBe(200);
    const closedAgain = (await read(maker)).json().cierreResponse;
    expect(closedAgain.cierre).toMatchObject({ estado: 'cerrado', cerradoPor: 'Fernanda Finanzas', propuestoPor: 'Felipe Finanzas' });
    expect(closedAgain.lineas).toHaveLength(2);
  });

  it('closes once when two finance operators approve the same proposal at the same time', async () => {
    await ownAccount();
    nextDay();
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    const id = (await propose(maker)).json().cierreResponse.cambio.id;
    const twice = await Promise.all([approve(checker, id), approve(checker, id)]);
    expect(twice.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const closes = await t.database.db.execute(sql`select count(*)::int as n from day_closes`);
    expect((closes as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'cierre.firmado'))).toHaveLength(1);
  });

  it('gives the accountant a CSV of the day, with its three sides in words and the totals', async () => {
    const own = await ownAccount();
    await byCard();
    const auditor = await operatorSession(op(), 'auditor');
    const res = await op().inject({ method: 'GET', url: `/admin/cierre/csv?fecha=${fecha()}`, headers: { cookie: auditor.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="cierre-${fecha()}.csv"`);
    expect(res.body.startsWith('\ufefffecha,idTransaccion,familia,medio de pago,estado aquí,monto aquí,Webpay (por tienda),monto Webpay,core (por clave),monto core,diferencia\r\n')).toBe(true);
    const rows = res.body.trimEnd().split('\r\n');
    const ownRow = rows.find((r) => r.includes(own))!.split(',');
    expect(ownRow.slice(3, 5)).toEqual(['Cuenta vista', 'Pagada']);
    expect(ownRow[6]).toBe('No aplica');
    expect(ownRow[10]).toBe('Cuadra');
    expect(ownRow[5]).toBe(ownRow[9]);
    expect(rows.find((r) => r.includes('Tarjeta (Webpay)'))).toContain('Abono al core pendiente');
    // Both products are consumer credits: one family total, with both payments.
    expect(rows.filter((r) => r.includes('Total por familia'))).toEqual([expect.stringMatching(/,Total por familia,PC,,,\d+,,\d+,,\d+,$/)]);
    expect(rows.some((r) => r.includes('Total por código de comercio,Cuenta vista'))).toBe(true);
  });

  it('is read by finance and audit only, signed by finance only, for real dates only', async () => {
    const agent = await operatorSession(op(), 'agente');
    expect((await read(agent)).statusCode).toBe(403);
    expect((await op().inject({ method: 'GET', url: `/admin/cierre/csv?fecha=${fecha()}`, headers: { cookie: agent.cookie } })).statusCode).toBe(403);
    const auditor = await operatorSession(op(), 'auditor');
    expect((await read(auditor)).statusCode).toBe(200);
    expect((await propose(auditor, '2020-01-02')).statusCode).toBe(403);
    const finance = await operatorSession(op(), 'finanzas');
    for (const bad of ['2026-02-30', '20261128', 'ayer', '2026-13-01', '']) {
      const res = await read(finance, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().cierreResponse.error.errores.detalleError.codigo).toBe('400');
      expect((await propose(finance, bad || 'x')).statusCode, bad).toBe(400);
    }
    const tomorrow = await propose(finance, '2999-01-01');
    expect(tomorrow.statusCode).toBe(409);
    expect((await op().inject({ method: 'POST', url: '/admin/cierre/2020-01-02/firmar', headers: asOperator(finance), payload: {} })).statusCode).toBe(400);
  });
});
