import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, parameters } from '../../db/schema';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN } from '../../../test/support/test-app';

const auth = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe.each(DATABASE_KINDS)('admin parameters API on %s', (kind) => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest(kind);

  const valueOf = async (nombre: string) =>
    (await t.database.db.select().from(parameters).where(sql`${parameters.nombre} = ${nombre}`))[0]?.valor;

  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token-at-all' }],
    ['a token that is a prefix', { authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, 10)}` }],
    ['another scheme', { authorization: `Basic ${TEST_ADMIN_TOKEN}` }],
  ])('refuses %s with 401 and changes nothing', async (_label, headers) => {
    const list = await t.app.inject({ method: 'GET', url: '/admin/parametros', headers });
    expect(list.statusCode).toBe(401);
    const put = await t.app.inject({ method: 'PUT', url: '/admin/parametros/Mantencion', headers, payload: { valor: '1' } });
    expect(put.statusCode).toBe(401);
    expect(await valueOf('Mantencion')).toBe('0');
  });

  it('lists the parameters with their last change', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/parametros', headers: auth });
    expect(res.statusCode).toBe(200);
    const list = res.json().parametrosResponse.parametros as { nombre: string; valor: string; actualizado: string }[];
    expect(list.find((p) => p.nombre === 'CierreDiario')).toMatchObject({ valor: '0', actualizado: expect.any(String) });
  });

  it('changes a parameter and records who-what-when in the audit trail', async () => {
    const before = (await t.database.db.select().from(auditLog)).length;
    const res = await t.app.inject({ method: 'PUT', url: '/admin/parametros/sessionTimeOut', headers: auth, payload: { valor: '7' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().parametrosResponse).toEqual({ nombre: 'sessionTimeOut', valor: '7', anterior: '5' });
    expect(await valueOf('sessionTimeOut')).toBe('7');
    const rows = await t.database.db.select().from(auditLog);
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ kind: 'admin.parametro.actualizado', detail: { nombre: 'sessionTimeOut', anterior: '5', valor: '7' } });
  });

  it('refuses an unknown parameter with 404 and an invalid value with 400, changing nothing', async () => {
    const unknown = await t.app.inject({ method: 'PUT', url: '/admin/parametros/Inventado', headers: auth, payload: { valor: '1' } });
    expect(unknown.statusCode).toBe(404);
    for (const [nombre, valor] of [
      ['Mantencion', '2'],
      ['Mantencion', 'si'],
      ['sessionTimeOut', '0'],
      ['sessionTimeOut', 'abc'],
      ['pagoWPDebito', '123'],
    ] as const) {
      const before = await valueOf(nombre);
      const res = await t.app.inject({ method: 'PUT', url: `/admin/parametros/${nombre}`, headers: auth, payload: { valor } });
      expect(res.statusCode, `${nombre}=${valor}`).toBe(400);
      expect(res.json().parametrosResponse.error.errores.detalleError.codigo).toBe('400');
      expect(await valueOf(nombre)).toBe(before);
    }
    const malformed = await t.app.inject({ method: 'PUT', url: '/admin/parametros/Mantencion', headers: auth, payload: { value: '1' } });
    expect(malformed.statusCode).toBe(400);
  });
});
