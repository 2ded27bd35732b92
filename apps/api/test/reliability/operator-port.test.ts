import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { recordFigures } from './settings';

// The admin API, the metrics and the OpenAPI document are the operator's, not the members': in production they
// answer only on ADMIN_PORT (bound to ADMIN_HOST), and wrong admin tokens are rate-limited per address.

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('operator surfaces on their own listener', () => {
  let t: TestApp;
  let attacks = 0;
  let member: string;
  let operator: string;
  beforeAll(async () => {
    t = await startTestApp('pglite', { config: { operatorListener: { host: '127.0.0.1', port: 0 } }, rateLimits: { adminPerIp: 5 } });
    member = await t.app.listen({ host: '127.0.0.1', port: 0 });
    operator = await t.app.operator.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    recordFigures({ section: 'attacks', database: 'pglite', faultsInjected: attacks });
    await t?.close();
  });

  it('answers /admin, /metrics and /docs only on the operator’s port', async () => {
    attacks++;
    expect(member).not.toBe(operator);
    for (const path of ['/admin/parametros', '/metrics', '/docs', '/docs/openapi.json']) {
      const res = await fetch(`${member}${path}`, { headers: admin });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ errorResponse: { error: { errores: { detalleError: { codigo: '400' } } } } });
    }
    expect((await fetch(`${operator}/admin/parametros`, { headers: admin })).status).toBe(200);
    expect(await (await fetch(`${operator}/metrics`)).text()).toMatch(/^pago_online_rate_limits_local 0$/m);
    // The document still describes the members' calls and the admin API.
    const paths = Object.keys(((await (await fetch(`${operator}/docs`)).json()) as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(expect.arrayContaining(['/prod/producto/listar', '/api/pagoexpress/initMall', '/admin/parametros']));
    // And the members' calls are not on the operator's port.
    expect((await fetch(`${operator}/prod/parametro/consultar`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);
    expect((await fetch(`${member}/health`)).status).toBe(200);
  });

  it('limits wrong tokens per address, and never refuses the right one for someone else’s failures', async () => {
    attacks++;
    const call = (authorization: string) => t.app.operator.inject({ method: 'GET', url: '/admin/parametros', remoteAddress: '10.8.0.1', headers: { authorization } });
    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push((await call(`Bearer guess-${i}`)).statusCode);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
    const limited = await call('Bearer guess-7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ parametrosResponse: { error: { errores: { detalleError: { codigo: '514' } } } } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The operator, on the same address, is served: their token is checked before anyone's failures count.
    for (let i = 0; i < 3; i++) expect((await call(admin.authorization)).statusCode).toBe(200);
    expect((await call('Bearer guess-8')).statusCode).toBe(429);
  });
});
