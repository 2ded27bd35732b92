import { describe, expect, it } from 'vitest';
import { appPerTest, startTestApp } from '../../../test/support/test-app';

describe('sandbox pages', () => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest('pglite');

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

  it('issues enrolment codes for the demo members with the authoriser, and approves nothing by itself', async () => {
    const issue = (rut: string) => t.app.inject({ method: 'POST', url: '/sandbox/api/authorizer/enrolment-code', payload: { rut } });
    expect((await issue('14.141.414-3')).json().codigo).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/);
    expect((await issue('11111111-1')).statusCode).toBe(200);
    // Not for a demo member without the authoriser, nor for anyone else.
    for (const rut of ['7654321-6', '1-9']) expect((await issue(rut)).statusCode, rut).toBe(404);
    // The page is a client of the protocol; the shortcut that approved a RUT's push is gone.
    const script = await t.app.inject({ method: 'GET', url: '/sandbox/assets/authorizer.js' });
    expect(script.body).toContain('/api/autorizador/');
    expect(script.body).toContain("crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false");
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/api/authorizer/pending?rut=14141414-3' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/sandbox/api/authorizer/${crypto.randomUUID()}/approve`, payload: { rut: '14141414-3' } })).statusCode).toBe(404);
  });
});

describe('outside sandbox mode', () => {
  it('serves no sandbox page', async () => {
    const t = await startTestApp('pglite', { config: { sandbox: false } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/sandbox' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/sandbox/sitio/recuperar-clave' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: '/sandbox/api/authorizer/enrolment-code', payload: { rut: '14141414-3' } })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
