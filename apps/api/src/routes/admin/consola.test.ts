import { businessToday } from '@pago/domain/business-time';
import { describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { transactionViewSchema } from '@pago/domain/schemas/admin';
import * as z from 'zod/mini';
import { listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar, productNumbered } from '../../../test/support/member-calls';
import { asOperator, operatorSession } from '../../../test/support/operator-session';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN } from '../../../test/support/test-app';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe.each(DATABASE_KINDS)('the console’s calls on %s', (kind) => {
  const t = appPerTest(kind);
  const op = () => t.app.operator;

  it('shows a member by RUT: blocks, devices and transactions, with the RUT masked', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const selected = await postSeleccionar(t.app, token, '11111111-1', [oldest(productNumbered(productos, '630055667788'), 1)]);
    const { idTransaccion } = selected.json().seleccionarProductoResponse as { idTransaccion: string };
    const agente = await operatorSession(op(), 'agente');
    const res = await op().inject({ method: 'GET', url: '/admin/socios/11.111.111-1', headers: { cookie: agente.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const socio = res.json().consolaResponse;
    expect(socio).toMatchObject({ nombre: expect.any(String), clave: 'activa', tarjeta: 'activa', dispositivos: [] });
    expect(socio.rut).not.toContain('11.111.111');
    expect(socio.transacciones).toEqual([expect.objectContaining({ idTransaccion, estado: 'pending', comprobante: false })]);
    expect((await op().inject({ method: 'GET', url: '/admin/socios/1-9', headers: { cookie: agente.cookie } })).statusCode).toBe(404);
    // Looking a member up is in the audit trail, with the RUT masked.
    const audit = await op().inject({ method: 'GET', url: '/admin/auditoria?kind=operador.consulta', headers: admin });
    expect(audit.json().operacionesResponse.eventos[1]).toMatchObject({ rutMasked: expect.stringMatching(/\*+111-1$/), detail: { operador: 'Ana Agente' } });
  });

  it('answers a transaction in the shared schema: every attempt with its transaction, amounts, lines under their credit', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const credits = productos.filter((p) => p.tipoFamiliaProducto === 'PC').slice(0, 2);
    expect(credits).toHaveLength(2);
    const selected = (await postSeleccionar(t.app, token, '11111111-1', credits.map((p) => oldest(p, 1)))).json().seleccionarProductoResponse as { idTransaccion: string; montoTotal?: number };
    const { idTransaccion } = selected;
    // A wrong password, a wrong coordinate answer, then the right ones.
    await postAutentica(t.app, token, '11111111-1', '9999');
    const numeroCuenta = (await postAutentica(t.app, token, '11111111-1', '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta;
    await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1);
    await postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta, factor: 1, valores: ['00', '00', '00'] });
    const cells = (await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1)).json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[];
    const card = demoCoordinateCard('11111111-1');
    await postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta, factor: 1, valores: cells.map((c) => card[c.valor]!) });

    const agente = await operatorSession(op(), 'agente');
    const res = await op().inject({ method: 'GET', url: `/admin/transacciones/${idTransaccion}`, headers: { cookie: agente.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    // The console parses the answer with the schema the route declares.
    const view = z.parse(transactionViewSchema, res.json().operacionesResponse);
    expect(view.transaccion).toMatchObject({ estado: 'paid', familia: 'PC', medioPago: 'CUENTA VISTA' });
    expect(view.transaccion.creada).toBeInstanceOf(Date);
    const total = view.transaccion.total;
    expect(view.lineas.reduce((sum, l) => sum + l.monto, 0)).toBe(total);
    // The member's answers name products by per-session references ending in the product's last four digits.
    expect(new Set(view.lineas.map((l) => l.numeroProducto.slice(-4)))).toEqual(new Set(credits.map((p) => p.numeroProducto.slice(-4))));
    expect(view.autorizaciones.map((a) => [a.estado, a.monto])).toEqual([
      ['expired', total],
      ['used', total],
    ]);
    const kinds = view.auditoria.map((a) => a.kind);
    expect(kinds).toEqual(expect.arrayContaining(['clave.incorrecta', 'coordenadas.incorrectas', 'clave.correcta', 'pago.cuentavista']));
    expect(view.auditoria.find((a) => a.kind === 'coordenadas.incorrectas')?.detail).toMatchObject({ idTransaccion, motivo: 'incorrecto' });
  });

  it('answers the dashboard, the Webpay reconciliation of a day and the audit trail as CSV', async () => {
    const auditor = await operatorSession(op(), 'auditor');
    const get = (url: string) => op().inject({ method: 'GET', url, headers: { cookie: auditor.cookie } });
    const summary = await get('/admin/resumen');
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().consolaResponse).toMatchObject({ fecha: businessToday(new Date()), pagos: [], cambiosPendientes: 0, baseDeDatos: true });
    const webpay = await get(`/admin/conciliacion/webpay?fecha=${businessToday(new Date())}`);
    expect(webpay.statusCode, webpay.body).toBe(200);
    expect(webpay.json().consolaResponse).toMatchObject({ conciliadas: 0, diferencias: 0, lineas: [] });
    expect((await get('/admin/conciliacion/webpay?fecha=20261399')).statusCode).toBe(400);
    const csv = await get(`/admin/conciliacion/webpay/csv?fecha=${businessToday(new Date())}`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\r\n')[0]).toBe('fecha,ordenCompra,idTransaccion,estadoWebpay,estadoPago,monto,resultado');

    const operaciones = await operatorSession(op(), 'operaciones');
    await op().inject({ method: 'PUT', url: '/admin/parametros/cancelTrxMsg', headers: asOperator(operaciones), payload: { valor: '=HYPERLINK("x")', motivo: 'Texto del mensaje de anulación' } });
    const trail = await get(`/admin/auditoria/csv?operador=${encodeURIComponent('Óscar Operaciones')}`);
    expect(trail.statusCode).toBe(200);
    const [header, ...rows] = trail.body.trim().split('\r\n');
    expect(header).toBe('id,fecha (hora de Chile),tipo,operador,rut,solicitud,detalle');
    expect(rows.some((row) => row.includes('admin.parametro.actualizado') && row.includes('Óscar Operaciones'))).toBe(true);
    // What an operator typed never reaches a spreadsheet as a formula.
    expect(trail.body).not.toMatch(/,=HYPERLINK/);
    expect((await get('/admin/auditoria?rut=no-es-rut')).statusCode).toBe(400);
  });
});
