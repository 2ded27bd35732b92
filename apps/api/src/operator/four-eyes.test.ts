import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, coreOperations, machineTokens, operatorChanges, parameters, products } from '../db/schema';
import { listProducts, oldest, postSeleccionar, productNumbered } from '../../test/support/member-calls';
import { asOperator, operatorSession } from '../../test/support/operator-session';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN } from '../../test/support/test-app';
import { needsSecondPerson } from './four-eyes';

describe('which parameters need a second person', () => {
  it('covers the switches, commerce codes and limits, not the texts or the session time-out', () => {
    for (const name of ['Mantencion', 'CierreDiario', 'PC', 'pagoWebPayAH', 'pagoDebitoCreditoTC', 'pagoWPDebito', 'pagoWPDebitoCredito', 'topeDepositoWebPayAH', 'diasMoraHI']) {
      expect(needsSecondPerson(name), name).toBe(true);
    }
    for (const name of ['sessionTimeOut', 'medioPagoWP', 'btnPayPC', 'cancelTrxMsg']) expect(needsSecondPerson(name), name).toBe(false);
  });
});

describe.each(DATABASE_KINDS)('four eyes on %s', (kind) => {
  const t = appPerTest(kind);
  const op = () => t.app.operator;
  const valueOf = async (nombre: string) => (await t.database.db.select().from(parameters).where(eq(parameters.nombre, nombre)))[0]?.valor;
  const propose = (session: Awaited<ReturnType<typeof operatorSession>>, nombre: string, valor: string) =>
    op().inject({ method: 'PUT', url: `/admin/parametros/${nombre}`, headers: asOperator(session), payload: { valor, motivo: 'Prueba de cuatro ojos' } });
  const decide = (session: Awaited<ReturnType<typeof operatorSession>>, id: string, action: 'aprobar' | 'rechazar') =>
    op().inject({ method: 'POST', url: `/admin/cambios/${id}/${action}`, headers: asOperator(session) });

  it('applies maintenance only once a second operator approves it, with both names in the audit trail', async () => {
    const maker = await operatorSession(op(), 'operaciones');
    const checker = await operatorSession(op(), 'operaciones2');
    const proposed = await propose(maker, 'Mantencion', '1');
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().parametrosResponse.cambio;
    expect(cambio).toMatchObject({ tipo: 'parametro', objetivo: 'Mantencion', propuesta: { valor: '1' }, estado: 'pendiente', propuestoPor: 'Óscar Operaciones' });
    expect(await valueOf('Mantencion')).toBe('0');

    // Nobody approves their own change; a second proposal for the same parameter waits for the first.
    const own = await decide(maker, cambio.id, 'aprobar');
    expect(own.statusCode).toBe(403);
    expect((await propose(checker, 'Mantencion', '1')).statusCode).toBe(409);
    expect(await valueOf('Mantencion')).toBe('0');

    const inbox = await op().inject({ method: 'GET', url: '/admin/cambios', headers: { cookie: checker.cookie } });
    expect(inbox.json().cambiosResponse.cambios).toEqual([expect.objectContaining({ id: cambio.id, estado: 'pendiente', propio: false })]);

    const approved = await decide(checker, cambio.id, 'aprobar');
    expect(approved.statusCode).toBe(200);
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ estado: 'aprobado', propuestoPor: 'Óscar Operaciones', decididoPor: 'Olga Operaciones' });
    expect(await valueOf('Mantencion')).toBe('1');
    // Decided once.
    expect((await decide(checker, cambio.id, 'aprobar')).statusCode).toBe(409);

    const lines = await t.database.db.select().from(auditLog).where(sql`${auditLog.detail}->>'cambio' = ${cambio.id}`);
    expect(lines.map((l) => l.kind)).toEqual(expect.arrayContaining(['cambio.propuesto', 'cambio.aprobado', 'admin.parametro.actualizado']));
    expect(lines.find((l) => l.kind === 'admin.parametro.actualizado')?.detail).toMatchObject({ nombre: 'Mantencion', anterior: '0', valor: '1', operador: 'Óscar Operaciones', aprobadoPor: 'Olga Operaciones' });
    const filtered = await op().inject({ method: 'GET', url: `/admin/auditoria?operador=${encodeURIComponent('Olga Operaciones')}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(filtered.json().operacionesResponse.eventos.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['cambio.aprobado', 'admin.parametro.actualizado']));
  });

  it('lets a second operator reject a change, which then never applies', async () => {
    const maker = await operatorSession(op(), 'operaciones2');
    const checker = await operatorSession(op(), 'operaciones');
    const cambio = (await propose(maker, 'CierreDiario', '1')).json().parametrosResponse.cambio;
    const rejected = await decide(checker, cambio.id, 'rechazar');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().cambiosResponse.cambio).toMatchObject({ estado: 'rechazado', decididoPor: 'Óscar Operaciones' });
    expect(await valueOf('CierreDiario')).toBe('0');
    expect((await decide(checker, cambio.id, 'aprobar')).statusCode).toBe(409);
    expect(await valueOf('CierreDiario')).toBe('0');
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'cambio.rechazado'));
    expect(line?.detail).toMatchObject({ operador: 'Olga Operaciones', rechazadoPor: 'Óscar Operaciones' });
  });

  it('refuses the decision to operators without the right role, and lapses a change not decided in time', async () => {
    const maker = await operatorSession(op(), 'operaciones');
    const cambio = (await propose(maker, 'pagoWPDebito', '597055555599')).json().parametrosResponse.cambio;
    for (const usuario of ['agente', 'finanzas', 'auditor', 'admin']) {
      const other = await operatorSession(op(), usuario);
      expect((await decide(other, cambio.id, 'aprobar')).statusCode, usuario).toBe(403);
    }
    expect(await valueOf('pagoWPDebito')).not.toBe('597055555599');
    await t.database.db.update(operatorChanges).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(operatorChanges.id, cambio.id));
    const late = await decide(await operatorSession(op(), 'operaciones2'), cambio.id, 'aprobar');
    expect(late.statusCode).toBe(409);
    expect(await valueOf('pagoWPDebito')).not.toBe('597055555599');
    // The scheduler's job records the lapse, with its audit line.
    await t.app.scheduler.runNow('operator-change-lapse');
    const [row] = await t.database.db.select().from(operatorChanges).where(eq(operatorChanges.id, cambio.id));
    expect(row?.status).toBe('vencido');
    expect(await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'cambio.vencido'))).toHaveLength(1);
  });

  it('applies texts and the session time-out at once, naming the operator', async () => {
    const session = await operatorSession(op(), 'operaciones');
    const res = await propose(session, 'sessionTimeOut', '9');
    expect(res.statusCode).toBe(200);
    expect(await valueOf('sessionTimeOut')).toBe('9');
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'admin.parametro.actualizado'));
    expect(line?.detail).toMatchObject({ nombre: 'sessionTimeOut', valor: '9', operador: 'Óscar Operaciones' });
  });

  it('turns an issued machine token’s change into a proposal that only a person decides; the bootstrap token applies at once', async () => {
    const bootstrap = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const issued = await op().inject({ method: 'POST', url: '/admin/tokens', headers: bootstrap, payload: { nombre: 'automatizacion', alcances: ['parametros.cambiar', 'resumen.ver'] } });
    expect(issued.statusCode).toBe(200);
    const machine = { authorization: `Bearer ${issued.json().consolaResponse.secreto}` };
    const proposed = await op().inject({ method: 'PUT', url: '/admin/parametros/PC', headers: machine, payload: { valor: '0' } });
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().parametrosResponse.cambio;
    expect(cambio.propuestoPor).toBe('token automatizacion (ADMIN_TOKEN)');
    expect((await op().inject({ method: 'POST', url: `/admin/cambios/${cambio.id}/aprobar`, headers: machine })).statusCode).toBe(403);
    expect(await valueOf('PC')).toBe('1');
    expect((await decide(await operatorSession(op(), 'operaciones'), cambio.id, 'aprobar')).statusCode).toBe(200);
    expect(await valueOf('PC')).toBe('0');

    const direct = await op().inject({ method: 'PUT', url: '/admin/parametros/PC', headers: bootstrap, payload: { valor: '1' } });
    expect(direct.statusCode).toBe(200);
    expect(await valueOf('PC')).toBe('1');
    // Stored hashed: the secret is nowhere in the table.
    const rows = await t.database.db.select().from(machineTokens);
    expect(JSON.stringify(rows)).not.toContain(issued.json().consolaResponse.secreto);
  });

  it('re-posts a card credit the core refused, under a new key, only once a second finance operator approves', async () => {
    // A card payment's credit the core refused (as recordCredit leaves it): the transaction and its line are real.
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const selected = await postSeleccionar(t.app, token, '11111111-1', [oldest(productNumbered(productos, '630055667788'), 1)]);
    const { idTransaccion, montoTotal } = selected.json().seleccionarProductoResponse as { idTransaccion: string; montoTotal: number };
    const [product] = await t.database.db.select().from(products).where(eq(products.numeroProducto, '630055667788'));
    const key = `${idTransaccion}-wp-1`;
    await t.database.db.insert(coreOperations).values({
      key,
      idTransaccion,
      kind: 'abono_webpay',
      status: 'refused',
      amount: montoTotal,
      lines: [{ productId: product!.id, numeroProducto: '630055667788', family: product!.family, amount: montoTotal }],
      lastError: 'the core refused it',
    });
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    const listed = await op().inject({ method: 'GET', url: '/admin/core/rechazadas', headers: { cookie: maker.cookie } });
    expect(listed.json().consolaResponse.abonos).toEqual([expect.objectContaining({ clave: key, idTransaccion, monto: montoTotal })]);

    // Operations may not re-post; finance proposes.
    const operaciones = await operatorSession(op(), 'operaciones');
    expect((await op().inject({ method: 'POST', url: `/admin/core/operaciones/${key}/reenviar`, headers: asOperator(operaciones) })).statusCode).toBe(403);
    const proposed = await op().inject({ method: 'POST', url: `/admin/core/operaciones/${key}/reenviar`, headers: asOperator(maker) });
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().consolaResponse.cambio;
    expect(cambio).toMatchObject({ tipo: 'reposteo_core', objetivo: key, propuestoPor: 'Fernanda Finanzas' });
    expect(await t.database.db.select().from(coreOperations).where(eq(coreOperations.idTransaccion, idTransaccion))).toHaveLength(1);
    expect((await decide(maker, cambio.id, 'aprobar')).statusCode).toBe(403);
    expect((await decide(operaciones, cambio.id, 'aprobar')).statusCode).toBe(403);

    const approved = await decide(checker, cambio.id, 'aprobar');
    expect(approved.statusCode).toBe(200);
    const ops = await t.database.db.select().from(coreOperations).where(eq(coreOperations.idTransaccion, idTransaccion));
    expect(ops.map((o) => [o.key, o.status]).sort()).toEqual([
      [key, 'refused'],
      [`${key}.r1`, 'pending'],
    ]);
    // Not twice: the refused credit has a re-post under way.
    expect((await op().inject({ method: 'POST', url: `/admin/core/operaciones/${key}/reenviar`, headers: asOperator(maker) })).statusCode).toBe(409);
    expect((await op().inject({ method: 'GET', url: '/admin/core/rechazadas', headers: { cookie: maker.cookie } })).json().consolaResponse.abonos).toEqual([]);

    // The postings job sends it; the core books it under the new key.
    expect(await t.app.services.corePostings.postDue()).toMatchObject({ booked: 1 });
    const books = await t.core.books();
    const loan = books.loans.find((l) => l.externalId === '630055667788');
    expect(loan?.transactions.filter((tx) => tx.externalId === `${key}.r1` && !tx.reversed).map((tx) => tx.amount)).toEqual([montoTotal]);
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'core.abono.reenviado'));
    expect(line?.detail).toMatchObject({ clave: key, nuevaClave: `${key}.r1`, operador: 'Fernanda Finanzas', aprobadoPor: 'Felipe Finanzas' });
  });

  it('keeps unblocking a member and revoking a phone immediate', async () => {
    const agente = await operatorSession(op(), 'agente');
    const unblock = await op().inject({ method: 'POST', url: '/admin/socios/13579246-2/desbloquear-clave', headers: asOperator(agente), payload: { motivo: 'El socio confirmó su identidad' } });
    expect(unblock.statusCode).toBe(200);
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'admin.clave.desbloqueada'));
    expect(line?.detail).toMatchObject({ operador: 'Ana Agente' });
    expect(await t.database.db.select().from(operatorChanges)).toHaveLength(0);
  });
});
