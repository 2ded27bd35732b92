import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { members } from '../../db/schema';
import { errorCode, listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar } from '../../../test/support/member-calls';
import { appPerTest, TEST_ADMIN_TOKEN } from '../../../test/support/test-app';

const auth = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('operator calls, metrics and the OpenAPI document', () => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest('pglite');

  it('unblocks a blocked password, audited, and refuses without the token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/admin/socios/13.579.246-2/desbloquear-clave' })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'POST', url: '/admin/socios/13.579.246-2/desbloquear-clave', headers: auth });
    expect(res.json()).toEqual({ operacionesResponse: { codigo: '200' } });
    const [member] = await t.database.db.select().from(members).where(eq(members.rut, '13579246-2'));
    expect(member?.passwordBlockedAt).toBeNull();
    const { token, productos } = await listProducts(t.app, '13579246-2');
    await postSeleccionar(t.app, token, '13579246-2', [oldest(productos[0]!, 1)]);
    expect((await postAutentica(t.app, token, '13579246-2', '1234')).json().autenticaConsultaFactoresResponse.codigo).toBe('200');
    expect((await t.app.inject({ method: 'POST', url: '/admin/socios/5126663-3/desbloquear-clave', headers: auth })).statusCode).toBe(404);
  });

  it('refuses every operations call without the token under its own response name', async () => {
    for (const [method, url] of [
      ['POST', '/admin/socios/13579246-2/desbloquear-clave'],
      ['POST', '/admin/socios/15432876-9/desbloquear-tarjeta'],
      ['POST', '/admin/importacion'],
      ['GET', '/admin/auditoria'],
      ['GET', `/admin/transacciones/${'0'.repeat(32)}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { authorization: 'Bearer wrong-token-0123456789' } });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().operacionesResponse.error.errores.detalleError, url).toEqual({ codigo: '400', descripcion: 'No autorizado.' });
    }
  });

  it('unblocks a coordinate card blocked by wrong answers', async () => {
    const { token, productos } = await listProducts(t.app, '15432876-9');
    await postSeleccionar(t.app, token, '15432876-9', [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1)]);
    const numeroCuenta = (await postAutentica(t.app, token, '15432876-9', '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta;
    for (let i = 0; i < 3; i++) {
      await postAutorizar(t.app, token, '15432876-9', '15432876-9', 1);
      await postPagar(t.app, { token, rutTitular: '15432876-9', rutPago: '15432876-9', numeroCuenta, factor: 1, valores: ['00', '00', '00'] });
    }
    expect(errorCode(await postAutorizar(t.app, token, '15432876-9', '15432876-9', 1), 'autorizarPagoProductoCVResponse')).toBe('45203017');
    await t.app.inject({ method: 'POST', url: '/admin/socios/15432876-9/desbloquear-tarjeta', headers: auth });
    // That login had its three challenges: the member logs in again.
    await postAutentica(t.app, token, '15432876-9', '1234');
    expect((await postAutorizar(t.app, token, '15432876-9', '15432876-9', 1)).json().autorizarPagoProductoCVResponse.codigo).toBe('200');
  });

  it('shows a paid transaction with its lines, factor, voucher and audit trail; counts it in /metrics', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const sel = (await postSeleccionar(t.app, token, '11111111-1', [oldest(productos.find((p) => p.tipoFamiliaProducto === 'CP')!, 2)])).json().seleccionarProductoResponse;
    const numeroCuenta = (await postAutentica(t.app, token, '11111111-1', '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta;
    const cells = (await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1)).json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[];
    const card = demoCoordinateCard('11111111-1');
    await postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta, factor: 1, valores: cells.map((c) => card[c.valor]!) });

    const res = await t.app.inject({ method: 'GET', url: `/admin/transacciones/${sel.idTransaccion}`, headers: auth });
    const body = res.json().operacionesResponse;
    expect(body.transaccion).toMatchObject({ estado: 'paid', total: 10_000, medioPago: 'CUENTA VISTA', familia: 'CP' });
    expect(body.pagador).toMatchObject({ rut: expect.stringMatching(/\*+111-1$/), esElSocio: true });
    expect(body.transaccion.hostTokenHash).toBeUndefined();
    expect(body.lineas).toHaveLength(2);
    expect(body.autorizaciones).toEqual([expect.objectContaining({ factor: 1, estado: 'used', monto: 10_000 })]);
    expect(body.comprobante).toEqual({ emitido: expect.any(String) });
    expect(body.auditoria.map((a: { kind: string }) => a.kind)).toEqual(expect.arrayContaining(['clave.correcta', 'pago.cuentavista']));

    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/pago_online_payments_total\{method="cuenta_vista",outcome="paid"\} \d+/);
    expect(metrics.body).toContain('http_request_duration_seconds_bucket{le="0.005",method="POST",route="/prod/producto/listar",status="200"}');
  });

  it('serves the OpenAPI document of the calls at /docs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs' })).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of ['/prod/parametro/consultar', '/prod/producto/listar', '/prod/producto/seleccionar', '/prod/pago/producto/cuentavista/pagar', '/prod/pago/consultar', '/prod/notificaciones/enviar', '/prod/auditoria/guardarlog', '/api/pagoexpress/auth', '/api/pagoexpress/initMall']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(JSON.stringify(doc.paths['/prod/producto/listar'].post.requestBody)).toContain('listarDetalleProductosRequest');
  });
});
