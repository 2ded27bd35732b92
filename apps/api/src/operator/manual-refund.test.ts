import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, operatorChanges, webpayAttempts } from '../db/schema';
import { listar, oldestOf, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from '../../test/reliability/flows';
import { injectTarget } from '../../test/reliability/http';
import { asOperator, operatorSession, type OperatorSession } from '../../test/support/operator-session';
import { webpaySimPerTest } from '../../test/support/webpay-sim';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN } from '../../test/support/test-app';

// Manual refunds of card payments through four eyes (decision 036), against the Webpay simulator.

const RUT = '11111111-1';

describe.each(DATABASE_KINDS)('manual refunds of card payments, through four eyes, on %s', (kind) => {
  const webpay = webpaySimPerTest();
  const t = appPerTest(kind, { webpay: webpay.client, config: { altchaCounter: { min: 10, max: 50 } } });

  const op = () => t.app.operator;
  const target = () => injectTarget(t.app);
  const attemptOf = async (buyOrder: string) => (await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.buyOrder, buyOrder)))[0]!;
  const propose = (session: OperatorSession, ordenCompra: string, motivo = 'Cobro doble: el socio pagó dos veces la misma cuota') =>
    op().inject({ method: 'POST', url: `/admin/webpay/${ordenCompra}/devolver`, headers: asOperator(session), payload: { motivo } });
  const decide = (session: OperatorSession, id: string, action: 'aprobar' | 'rechazar') => op().inject({ method: 'POST', url: `/admin/cambios/${id}/${action}`, headers: asOperator(session) });

  /** A card deposit paid on two forms of the same transaction: the first applies; Webpay refuses to refund the second, set aside. */
  async function paidTwice() {
    const { token, productos } = await listar(target(), RUT);
    const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 1, 10_000)];
    const sel = await seleccionar(target(), token, RUT, producto);
    const first = await startCard(target(), { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
    const second = await startCard(target(), { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
    expect(await postReturn(target(), await useCardForm(webpay.url, first.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    webpay.faults.refuseRefunds = true;
    await postReturn(target(), await useCardForm(webpay.url, second.webpayToken, { card: VISA_APPROVED }));
    webpay.faults.refuseRefunds = false;
    const [applied] = await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, first.webpayToken));
    const [setAside] = await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, second.webpayToken));
    expect([applied!.status, setAside!.status]).toEqual(['committed', 'set_aside']);
    return { idTransaccion: sel.idTransaccion, applied: applied!, setAside: setAside! };
  }

  it('refunds a set-aside payment once a second finance operator approves, with both names in the audit trail', async () => {
    const { idTransaccion, setAside } = await paidTwice();
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    const listed = await op().inject({ method: 'GET', url: '/admin/webpay/apartados', headers: { cookie: maker.cookie } });
    expect(listed.json().consolaResponse.cobros).toEqual([expect.objectContaining({ ordenCompra: setAside.buyOrder, idTransaccion, monto: 10_000, estadoPago: 'paid', devolucionPropuesta: false })]);

    const proposed = await propose(maker, setAside.buyOrder);
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().consolaResponse.cambio;
    expect(cambio).toMatchObject({ tipo: 'devolucion_webpay', objetivo: setAside.buyOrder, estado: 'pendiente', propuestoPor: 'Fernanda Finanzas', propuesta: { idTransaccion, monto: 10_000 } });
    // Proposing changes nothing at Webpay or here; a second proposal waits for the first.
    expect((await attemptOf(setAside.buyOrder)).status).toBe('set_aside');
    expect(webpay.refundsSent).toBe(0);
    expect((await propose(checker, setAside.buyOrder)).statusCode).toBe(409);
    expect((await op().inject({ method: 'GET', url: '/admin/webpay/apartados', headers: { cookie: maker.cookie } })).json().consolaResponse.cobros[0].devolucionPropuesta).toBe(true);

    // Nobody approves their own; another role, or a machine, never decides it.
    expect((await decide(maker, cambio.id, 'aprobar')).statusCode).toBe(403);
    expect((await decide(await operatorSession(op(), 'operaciones'), cambio.id, 'aprobar')).statusCode).toBe(403);
    expect((await op().inject({ method: 'POST', url: `/admin/cambios/${cambio.id}/aprobar`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode).toBe(403);
    expect((await attemptOf(setAside.buyOrder)).status).toBe('set_aside');
    expect(webpay.refundsSent).toBe(0);

    const approved = await decide(checker, cambio.id, 'aprobar');
    expect(approved.statusCode).toBe(200);
    expect(approved.json().cambiosResponse.cambio).toMatchObject({
      estado: 'aprobado',
      propuestoPor: 'Fernanda Finanzas',
      decididoPor: 'Felipe Finanzas',
      resultado: { enWebpay: 10_000, devolucion: 'Devuelto por Webpay', devuelto: 10_000 },
    });
    expect((await attemptOf(setAside.buyOrder)).status).toBe('refunded');
    expect(webpay.refundsSent).toBe(1);
    expect(webpay.store.get(setAside.token!)!.details.map((d) => d.status)).toEqual(['REVERSED']);

    // Once: the decision is taken, and the payment is no longer refundable.
    expect((await decide(checker, cambio.id, 'aprobar')).statusCode).toBe(409);
    const again = await propose(maker, setAside.buyOrder);
    expect(again.statusCode).toBe(409);
    expect(again.json().consolaResponse.error.errores.detalleError.descripcion).toBe('El cobro ya fue devuelto.');
    expect((await t.app.services.card.reconcileOnce()).settled).toBe(0);
    expect(webpay.refundsSent).toBe(1);
    expect((await op().inject({ method: 'GET', url: '/admin/webpay/apartados', headers: { cookie: maker.cookie } })).json().consolaResponse.cobros).toEqual([]);

    const [manual] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'webpay.devolucion.manual'));
    expect(manual?.detail).toMatchObject({ idTransaccion, buyOrder: setAside.buyOrder, enWebpay: 10_000, operador: 'Fernanda Finanzas', aprobadoPor: 'Felipe Finanzas', cambio: cambio.id });
    const timeline = await op().inject({ method: 'GET', url: `/admin/transacciones/${idTransaccion}`, headers: { cookie: checker.cookie } });
    expect(timeline.json().operacionesResponse.auditoria.map((l: { kind: string }) => l.kind)).toEqual(
      expect.arrayContaining(['cambio.propuesto', 'cambio.aprobado', 'webpay.devolucion.manual', 'webpay.reembolso']),
    );
    const [refund] = await t.database.db.select().from(auditLog).where(sql`${auditLog.kind} = 'webpay.reembolso' and ${auditLog.detail}->>'buyOrder' = ${setAside.buyOrder}`);
    expect(refund?.detail).toMatchObject({ operador: 'Felipe Finanzas' });
  });

  it('leaves a rejected refund set aside, with the rejecter named', async () => {
    const { setAside } = await paidTwice();
    const maker = await operatorSession(op(), 'finanzas2');
    const checker = await operatorSession(op(), 'finanzas');
    const cambio = (await propose(maker, setAside.buyOrder)).json().consolaResponse.cambio;
    const rejected = await decide(checker, cambio.id, 'rechazar');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().cambiosResponse.cambio).toMatchObject({ estado: 'rechazado', decididoPor: 'Fernanda Finanzas' });
    expect((await decide(checker, cambio.id, 'aprobar')).statusCode).toBe(409);
    expect((await attemptOf(setAside.buyOrder)).status).toBe('set_aside');
    expect(webpay.refundsSent).toBe(0);
    expect(webpay.store.get(setAside.token!)!.details.map((d) => d.status)).toEqual(['AUTHORIZED']);
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'cambio.rechazado'));
    expect(line?.detail).toMatchObject({ operador: 'Felipe Finanzas', rechazadoPor: 'Fernanda Finanzas', motivo: 'Cobro doble: el socio pagó dos veces la misma cuota' });
  });

  it('refunds once when two approvals and the reconciliation run at the same time', async () => {
    const { setAside } = await paidTwice();
    const maker = await operatorSession(op(), 'finanzas');
    const tabs = [await operatorSession(op(), 'finanzas2'), await operatorSession(op(), 'finanzas2')];
    const cambio = (await propose(maker, setAside.buyOrder)).json().consolaResponse.cambio;
    const [a, b] = await Promise.all([decide(tabs[0]!, cambio.id, 'aprobar'), decide(tabs[1]!, cambio.id, 'aprobar'), t.app.services.card.reconcileOnce()]);
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
    await t.app.services.card.reconcileOnce();
    expect((await attemptOf(setAside.buyOrder)).status).toBe('refunded');
    expect(webpay.refundsSent).toBe(1);
    expect(webpay.store.get(setAside.token!)!.details.map((d) => d.status)).toEqual(['REVERSED']);
    expect(await t.database.db.$count(auditLog, eq(auditLog.kind, 'webpay.devolucion.manual'))).toBe(1);
  });

  it('tells a refund Webpay refused as failed, with Webpay’s reason in Spanish, in the answer, the inbox and the trail, and lets it be proposed again', async () => {
    const { idTransaccion, setAside } = await paidTwice();
    // The simulator's own rule, as Transbank's: nothing is nullified more than 90 days after the payment.
    webpay.store.get(setAside.token!)!.committedAt! -= 91 * 24 * 3_600_000;
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    const cambio = (await propose(maker, setAside.buyOrder)).json().consolaResponse.cambio;
    const approved = await decide(checker, cambio.id, 'aprobar');
    expect(approved.statusCode).toBe(200);
    const reason = 'Webpay rechazó la devolución: pasó el plazo de 90 días para anular el cobro';
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ estado: 'fallido', decididoPor: 'Felipe Finanzas', resultado: { devolucion: 'Rechazada por Webpay', motivoWebpay: reason, devuelto: 0 } });
    const inbox = (await op().inject({ method: 'GET', url: '/admin/cambios', headers: { cookie: maker.cookie } })).json().cambiosResponse.cambios;
    expect(inbox.find((c: { id: string }) => c.id === cambio.id)).toMatchObject({ estado: 'fallido', resultado: { motivoWebpay: reason } });
    // Webpay still holds it: still set aside, listed, and actionable.
    expect((await attemptOf(setAside.buyOrder)).status).toBe('set_aside');
    expect(webpay.store.get(setAside.token!)!.details.map((d) => d.status)).toEqual(['AUTHORIZED']);
    const [failed] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'webpay.devolucion.manual.rechazada'));
    expect(failed?.detail).toMatchObject({ idTransaccion, buyOrder: setAside.buyOrder, operador: 'Fernanda Finanzas', aprobadoPor: 'Felipe Finanzas', cambio: cambio.id, motivoWebpay: reason, mensajeWebpay: 'Refund period exceeded (90 days)' });
    const [apartado] = await t.database.db.select().from(auditLog).where(sql`${auditLog.kind} = 'webpay.apartado' and ${auditLog.detail}->>'cambio' is null and ${auditLog.detail}->>'motivo' = ${reason}`);
    expect(apartado?.detail).toMatchObject({ buyOrder: setAside.buyOrder });
    const listed = (await op().inject({ method: 'GET', url: '/admin/webpay/apartados', headers: { cookie: maker.cookie } })).json().consolaResponse.cobros;
    expect(listed).toEqual([expect.objectContaining({ ordenCompra: setAside.buyOrder, devolucionPropuesta: false })]);
    expect((await propose(maker, setAside.buyOrder)).statusCode).toBe(202);
  });

  it('settles a charge partly refunded in Transbank’s portal by refunding what is left', async () => {
    const { setAside } = await paidTwice();
    const [store0] = setAside.stores;
    // 3.000 of the 10.000 were given back by hand: Webpay holds 7.000.
    expect((await webpay.direct().refund(setAside.token!, store0!.buyOrder, store0!.commerceCode, 3_000)).ok).toBe(true);
    const maker = await operatorSession(op(), 'finanzas');
    const cambio = (await propose(maker, setAside.buyOrder)).json().consolaResponse.cambio;
    const approved = await decide(await operatorSession(op(), 'finanzas2'), cambio.id, 'aprobar');
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ estado: 'aprobado', resultado: { enWebpay: 7_000, devolucion: 'Devuelto por Webpay', devuelto: 7_000 } });
    expect((await attemptOf(setAside.buyOrder)).status).toBe('refunded');
    const detail = webpay.store.get(setAside.token!)!.details[0]!;
    expect([detail.status, detail.nullified, detail.balance]).toEqual(['NULLIFIED', 10_000, 0]);
    const [refund] = await t.database.db.select().from(auditLog).where(sql`${auditLog.kind} = 'webpay.reembolso' and ${auditLog.detail}->>'buyOrder' = ${setAside.buyOrder}`);
    expect(refund?.detail).toMatchObject({ monto: 7_000 });
  });

  it('records a payment Webpay already gave back (in Transbank’s portal) as refunded, without refunding it again', async () => {
    const { setAside } = await paidTwice();
    const [store0] = setAside.stores;
    expect((await webpay.direct().refund(setAside.token!, store0!.buyOrder, store0!.commerceCode, store0!.amount)).ok).toBe(true);
    const maker = await operatorSession(op(), 'finanzas');
    const cambio = (await propose(maker, setAside.buyOrder)).json().consolaResponse.cambio;
    const approved = await decide(await operatorSession(op(), 'finanzas2'), cambio.id, 'aprobar');
    expect(approved.statusCode).toBe(200);
    expect((await attemptOf(setAside.buyOrder)).status).toBe('refunded');
    expect(webpay.refundsSent).toBe(0);
    const [manual] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'webpay.devolucion.manual'));
    expect(manual?.detail).toMatchObject({ enWebpay: 0 });
  });

  it('keeps the refund pending while Webpay does not answer, and refunds on a later approval', async () => {
    const { setAside } = await paidTwice();
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    const cambio = (await propose(maker, setAside.buyOrder)).json().consolaResponse.cambio;
    webpay.faults.statusDown = true;
    const down = await decide(checker, cambio.id, 'aprobar');
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('60');
    expect((await t.database.db.select().from(operatorChanges).where(eq(operatorChanges.id, cambio.id)))[0]?.status).toBe('pendiente');
    expect((await attemptOf(setAside.buyOrder)).status).toBe('set_aside');
    webpay.faults.statusDown = false;
    expect((await decide(checker, cambio.id, 'aprobar')).statusCode).toBe(200);
    expect((await attemptOf(setAside.buyOrder)).status).toBe('refunded');
    expect(webpay.refundsSent).toBe(1);
  });

  it('refuses to refund a payment applied to instalments and booked in the core, an unknown one, or one Webpay has not settled', async () => {
    const { applied } = await paidTwice();
    const maker = await operatorSession(op(), 'finanzas');
    const booked = await propose(maker, applied.buyOrder);
    expect(booked.statusCode).toBe(409);
    expect(booked.json().consolaResponse.error.errores.detalleError.descripcion).toBe(
      'El cobro se aplicó a las cuotas, cuyo dinero lleva el core: se revierte en el core, no con una devolución desde la consola.',
    );
    expect((await propose(maker, 'PO0000000000000000')).statusCode).toBe(404);
    const { token, productos } = await listar(target(), RUT);
    const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 1, 5_000)];
    const sel = await seleccionar(target(), token, RUT, producto);
    const open = await startCard(target(), { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
    const openOrder = (await t.database.db.select().from(webpayAttempts).where(eq(webpayAttempts.token, open.webpayToken)))[0]!.buyOrder;
    expect((await propose(maker, openOrder)).statusCode).toBe(409);
    // A reason is required, and a hostile order is a 400, not a lookup.
    expect((await propose(maker, applied.buyOrder, ' ')).statusCode).toBe(400);
    expect((await op().inject({ method: 'POST', url: `/admin/webpay/${encodeURIComponent("x' or 1=1")}/devolver`, headers: asOperator(maker), payload: { motivo: 'prueba de ataque' } })).statusCode).toBe(400);
    expect(await t.database.db.$count(operatorChanges)).toBe(0);
    expect(webpay.refundsSent).toBe(0);
  });

  it('refuses the proposal without a session (401), to other roles (403), and without the CSRF token (403), changing nothing', async () => {
    const { setAside } = await paidTwice();
    const url = `/admin/webpay/${setAside.buyOrder}/devolver`;
    const payload = { motivo: 'Cobro doble del socio' };
    expect((await op().inject({ method: 'POST', url, payload })).statusCode).toBe(401);
    for (const usuario of ['agente', 'operaciones', 'auditor', 'admin']) {
      const session = await operatorSession(op(), usuario);
      expect((await op().inject({ method: 'POST', url, payload, headers: asOperator(session) })).statusCode, usuario).toBe(403);
    }
    const finanzas = await operatorSession(op(), 'finanzas');
    expect((await op().inject({ method: 'POST', url, payload, headers: { cookie: finanzas.cookie } })).statusCode).toBe(403);
    expect((await op().inject({ method: 'POST', url, payload, headers: { ...asOperator(finanzas), origin: 'https://atacante.example' } })).statusCode).toBe(403);
    expect(await t.database.db.$count(operatorChanges)).toBe(0);
    expect((await attemptOf(setAside.buyOrder)).status).toBe('set_aside');
  });
});
