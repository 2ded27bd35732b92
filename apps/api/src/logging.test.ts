import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { openDatabase, type Database } from './db/client';
import { seedDemoMembers, seedParameters } from './db/seed';
import { loggableUrl, loggerOptions } from './logging';
import { shiftedClock } from './clock';
import { createWebpayClient } from './services/webpay-client';
import { listProducts, oldest, postSeleccionar } from '../test/support/member-calls';
import { businessNoon, TEST_ADMIN_TOKEN, testConfig } from '../test/support/test-app';

describe('log lines', () => {
  const lines: Record<string, unknown>[] = [];
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: 'memory://' });
    await database.migrate();
    await seedParameters(database.db);
    // Business noon, so the mortgage can be selected whatever the hour in Santiago when the suite runs.
    const clock = shiftedClock(businessNoon());
    await seedDemoMembers(database.db, clock());
    app = await buildApp({
      config: testConfig(),
      database,
      clock,
      // Webpay unreachable: the card service logs a failure while serving the request.
      webpay: createWebpayClient({ baseUrl: 'http://127.0.0.1:9', commerceCode: '597055555535', apiKey: 'x'.repeat(20), timeoutMs: 1_000 }),
      logger: { ...loggerOptions('info'), stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('carry the request id, also when a service writes them', async () => {
    const { token, productos } = await listProducts(app, '11111111-1');
    const pm = productos.find((p) => p.tipoFamiliaProducto === 'PM')!;
    const sel = (await postSeleccionar(app, token, '11111111-1', [oldest(pm, 1)])).json().seleccionarProductoResponse;
    const auth = await app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${token}` }, payload: { idTransaction: sel.idTransaccion } });
    const init = await app.inject({
      method: 'POST',
      url: '/api/pagoexpress/initMall',
      headers: { authorization: `Bearer ${auth.json().token}` },
      payload: { sessionId: 'x', transactionId: sel.idTransaccion, storesTransaction: [{ amount: sel.montoTotal, commerceCode: '597055555536', transactionId: pm.numeroProducto }] },
    });
    expect(init.json()).toMatchObject({ code: 503 });
    const failure = lines.find((l) => l.msg === 'webpay create failed');
    expect(failure?.reqId).toBe(init.headers['x-request-id']);
    const requestLines = lines.filter((l) => l.msg === 'request completed');
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.every((l) => typeof l.reqId === 'string')).toBe(true);
    // One line per request, saying what was asked and how it ended.
    const initLines = requestLines.filter((l) => l.reqId === init.headers['x-request-id']);
    expect(initLines).toEqual([
      expect.objectContaining({ req: expect.objectContaining({ method: 'POST', url: '/api/pagoexpress/initMall' }), res: { statusCode: init.statusCode }, responseTime: expect.any(Number) }),
    ]);
  });

  it('never carry a RUT written in the path, nor query values', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/admin/socios/13.579.246-2/desbloquear-clave?rut=135792462',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    const line = lines.find((l) => l.msg === 'request completed' && l.reqId === res.headers['x-request-id']);
    expect(line).toMatchObject({ req: { url: '/admin/socios/*****246-2/desbloquear-clave?rut=[redacted]' } });
    expect(JSON.stringify(lines)).not.toMatch(/13\.?579\.?246/);
  });
});

describe('loggableUrl', () => {
  it.each([
    ['/admin/socios/13.579.246-2/desbloquear-tarjeta', '/admin/socios/*****246-2/desbloquear-tarjeta'],
    ['/admin/socios/13579246-2/desbloquear-clave', '/admin/socios/*****246-2/desbloquear-clave'],
    ['/admin/socios/135792462/desbloquear-clave', '/admin/socios/*****246-2/desbloquear-clave'],
    ['/admin/socios/5.126.663-K/desbloquear-clave', '/admin/socios/****663-K/desbloquear-clave'],
    ['/admin/socios/13%2E579%2E246%2D2/x', '/admin/socios/*****246-2/x'],
    ['/x/%E0%A4%A', '/x/[redacted]'],
    ['/admin/socios/13.579.246-2%/x', '/admin/socios/[redacted]/x'],
    ['/x/%zz', '/x/%zz'],
    ['/prod/parametro/consultar', '/prod/parametro/consultar'],
    ['/pagoexpress/successvoucher/4f1c2a9e0b7d4c3e8a6f5b2d1c0e9a8b', '/pagoexpress/successvoucher/4f1c2a9e0b7d4c3e8a6f5b2d1c0e9a8b'],
    ['/api/pagoexpress/return?token_ws=abc&rut=11111111-1', '/api/pagoexpress/return?token_ws=[redacted]&rut=[redacted]'],
  ])('%s → %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });
});
