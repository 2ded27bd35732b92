import { PARAMETER_NAMES } from '@pago/domain/parameters';
import { describe, expect, it } from 'vitest';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN } from '../../../../test/support/test-app';

const PATH = '/prod/parametro/consultar';
const validBody = { consultarParametrosRequest: { userId: '11111111-1', canalLlamada: 'PGEX', tipo: 'PE' } };
const errorOf = (body: unknown) =>
  (body as { consultarParametrosResponse: { error: { errores: { detalleError: { codigo: string; descripcion: string } } } } })
    .consultarParametrosResponse.error.errores.detalleError;

describe.each(DATABASE_KINDS)('POST /prod/parametro/consultar on %s', (kind) => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest(kind);

  const post = (payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    t.app.inject({ method: 'POST', url: PATH, headers, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

  it('answers every parameter of the specification from the database', async () => {
    const res = await post(validBody);
    expect(res.statusCode).toBe(200);
    const list = res.json().consultarParametrosResponse.listaParametros.parametro as { nombre: string; valor: string }[];
    expect(list.map((p) => p.nombre).sort()).toEqual([...PARAMETER_NAMES].sort());
    const byName = Object.fromEntries(list.map((p) => [p.nombre, p.valor]));
    expect(byName).toMatchObject({ Mantencion: '0', CierreDiario: '0', sessionTimeOut: '5', pagoWebPayHI: '0', PC: '1' });
  });

  it('follows an admin change on the very next call, with no restart', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/admin/parametros/Mantencion',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { valor: '1' },
    });
    expect(put.statusCode).toBe(200);
    const after = await post(validBody);
    const list = after.json().consultarParametrosResponse.listaParametros.parametro as { nombre: string; valor: string }[];
    expect(list.find((p) => p.nombre === 'Mantencion')?.valor).toBe('1');
    await t.app.inject({
      method: 'PUT',
      url: '/admin/parametros/Mantencion',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { valor: '0' },
    });
  });

  it.each([
    ['an empty object', {}],
    ['a missing request key', { otraCosa: {} }],
    ['a missing field', { consultarParametrosRequest: { userId: 'x', canalLlamada: 'PGEX' } }],
    ['a wrong channel', { consultarParametrosRequest: { ...validBody.consultarParametrosRequest, canalLlamada: 'WEB' } }],
    ['a wrong type', { consultarParametrosRequest: { ...validBody.consultarParametrosRequest, tipo: 1 } }],
    ['an extra field', { consultarParametrosRequest: { ...validBody.consultarParametrosRequest, admin: true } }],
    ['an array', [validBody]],
    ['null', null],
    ['a huge userId', { consultarParametrosRequest: { ...validBody.consultarParametrosRequest, userId: 'x'.repeat(10_000) } }],
  ])('refuses %s with 400 and the error envelope', async (_label, payload) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.json())).toEqual({ codigo: '400', descripcion: expect.any(String) });
  });

  it('refuses a body that is not JSON with a 4xx and the envelope, never a 500', async () => {
    const text = await post('Mantencion=1', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(errorOf(text.json()).codigo).toBe('415');
    const broken = await post('{"consultarParametrosRequest": ', { 'content-type': 'application/json' });
    expect(broken.statusCode).toBe(400);
    expect(errorOf(broken.json()).codigo).toBe('400');
    const empty = await t.app.inject({ method: 'POST', url: PATH, headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);
    const huge = await post(JSON.stringify({ consultarParametrosRequest: { userId: 'x'.repeat(200_000) } }));
    expect(huge.statusCode).toBe(413);
    expect(errorOf(huge.json()).codigo).toBe('400');
  });

  it('sends the security headers with every answer', async () => {
    const res = await post(validBody);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
