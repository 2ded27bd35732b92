import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listProducts, oldest, postAutentica, postAutorizar, postSeleccionar } from '../../test/member-calls';
import { type SeededSnapshot, seededSnapshot, startTestApp, type TestApp } from '../../test/test-app';

describe('sandbox pages', () => {
  let t: TestApp;
  let seeded: SeededSnapshot;
  beforeAll(async () => {
    seeded = await seededSnapshot('pglite');
  });
  afterAll(async () => {
    await seeded?.close();
  });
  // Each test on its own copy of the seeded members.
  beforeEach(async () => {
    t = await seeded.start();
  });
  afterEach(async () => {
    await t?.close();
  });

  it('lists the demo members and shows a demo coordinate card', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/sandbox' });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('19.191.919-K');
    expect(list.body).toContain('third-party payer');
    const card = await t.app.inject({ method: 'GET', url: '/sandbox/coordinates?rut=11.111.111-1' });
    expect(card.body).toContain('<div>24</div>');
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/coordinates?rut=7654321-6' })).statusCode).toBe(404);
  });

  it("stands in for the cooperative's site and password recovery, saying what the real pages do", async () => {
    const site = await t.app.inject({ method: 'GET', url: '/sandbox/sitio' });
    expect(site.statusCode).toBe(200);
    expect(site.body).toContain('PRODUCT_SITE_URL');
    const recovery = await t.app.inject({ method: 'GET', url: '/sandbox/sitio/recuperar-clave' });
    expect(recovery.statusCode).toBe(200);
    expect(recovery.body).toContain('<h1>Recuperar clave de internet</h1>');
    expect(recovery.body).toContain('PRODUCT_PASSWORD_RECOVERY_URL');
  });

  it('lets the authoriser see and decide only its own RUT’s pending pushes', async () => {
    const { token, productos } = await listProducts(t.app, '14141414-3');
    await postSeleccionar(t.app, token, '14141414-3', [oldest(productos[0]!, 1)]);
    await postAutentica(t.app, token, '14141414-3', '1234');
    await postAutorizar(t.app, token, '14141414-3', '14141414-3', 2);
    const pending = await t.app.inject({ method: 'GET', url: '/sandbox/api/authorizer/pending?rut=14.141.414-3' });
    const [push] = pending.json().pendientes;
    expect(push).toMatchObject({ monto: 121_480 });
    const stranger = await t.app.inject({ method: 'POST', url: `/sandbox/api/authorizer/${push.id}/approve`, payload: { rut: '11111111-1' } });
    expect(stranger.statusCode).toBe(409);
    const owner = await t.app.inject({ method: 'POST', url: `/sandbox/api/authorizer/${push.id}/approve`, payload: { rut: '14141414-3' } });
    expect(owner.json()).toEqual({ ok: true });
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/api/authorizer/pending?rut=14141414-3' })).json().pendientes).toEqual([]);
  });
});

describe('outside sandbox mode', () => {
  it('serves no sandbox page', async () => {
    const t = await startTestApp('pglite', { config: { sandbox: false } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/sandbox' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/sandbox/sitio/recuperar-clave' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/sandbox/api/authorizer/pending?rut=1-9' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
