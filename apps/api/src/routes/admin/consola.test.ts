import { businessToday } from '@pago/domain/business-time';
import { describe, expect, it } from 'vitest';
import { listProducts, oldest, postSeleccionar, productNumbered } from '../../../test/support/member-calls';
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
