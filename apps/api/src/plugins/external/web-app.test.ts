import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers';
import { CSP_NONCE_PLACEHOLDER, registerWebApp, routeMatcher } from './web-app';

// The web build's pages (decision 037): each route is answered with the page drawn for it, with a nonce of its own.

const page = (name: string) => `<!doctype html><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><p>${name}</p>`;

const dirs: string[] = [];
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function webBuild(withShells: boolean): string {
  const dist = mkdtempSync(join(tmpdir(), 'pago-web-app-'));
  dirs.push(dist);
  writeFileSync(join(dist, 'index.html'), page('home'));
  if (!withShells) return dist;
  mkdirSync(join(dist, 'shells'));
  for (const name of ['stepOne', 'stepTwo', 'stepTwo-PC', 'webpayResult', 'webpayResult-aprobado', 'not-found']) {
    writeFileSync(join(dist, 'shells', `${name}.html`), page(name));
  }
  // As the build lists them: a page drawn for one family, or for one value of the query, before the route's own.
  const routes = [
    { path: '/', file: 'index.html' },
    { path: '/pagoexpress', file: 'index.html' },
    { path: '/pagoonline/stepone', file: 'shells/stepOne.html' },
    { path: '/pagoexpress/steptwo/PC', file: 'shells/stepTwo-PC.html' },
    { path: '/pagoexpress/steptwo/:category', file: 'shells/stepTwo.html' },
    { path: '/pagoexpress/webpayresult', query: { estado: 'aprobado', idTransaccion: '[0-9a-f]{32}' }, file: 'shells/webpayResult-aprobado.html' },
    { path: '/pagoexpress/webpayresult', file: 'shells/webpayResult.html' },
  ];
  writeFileSync(join(dist, 'shells', 'routes.json'), JSON.stringify({ routes, fallback: 'shells/not-found.html' }));
  return dist;
}

async function serve(dist: string): Promise<FastifyInstance> {
  const app = Fastify();
  apps.push(app);
  const headers = securityHeaders({ production: false, formTargets: [] });
  headers.register(app);
  const fallback = await registerWebApp(app, dist, headers);
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && fallback?.(request.url, reply)) return reply;
    return reply.code(404).send({ error: 'not found' });
  });
  await app.ready();
  return app;
}

async function pageAt(app: FastifyInstance, url: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type'], url).toContain('text/html');
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
  expect(res.body, url).toContain(`nonce="${nonce}"`);
  expect(res.body, url).not.toContain(CSP_NONCE_PLACEHOLDER);
  return /<p>([^<]*)<\/p>/.exec(res.body)?.[1] ?? '';
}

const ID = '0123456789abcdef0123456789abcdef';

describe('the web build served page by page', () => {
  it("answers each route with its own page, as the browser's router matches it", async () => {
    const app = await serve(webBuild(true));
    const expected: [string, string][] = [
      ['/', 'home'],
      ['/pagoexpress', 'home'],
      ['/pagoexpress/', 'home'],
      ['/pagoonline/stepone', 'stepOne'],
      ['/pagoonline/stepone?x=1', 'stepOne'],
      ['/pagoexpress/steptwo/PM', 'stepTwo'],
      ['/pagoexpress/steptwo/PM/', 'stepTwo'],
      ['/pagoexpress/steptwo/PC', 'stepTwo-PC'],
      ['/pagoexpress/steptwo/PC/', 'stepTwo-PC'],
      ['/pagoexpress/steptwo/pc', 'stepTwo'],
      [`/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${ID}`, 'webpayResult-aprobado'],
      [`/pagoexpress/webpayresult?idTransaccion=${ID}&estado=aprobado`, 'webpayResult-aprobado'],
      // Only what the return page itself reads as approved: these two keys, once each, the id as call 3 issues it.
      [`/pagoexpress/webpayresult?estado=rechazado&idTransaccion=${ID}`, 'webpayResult'],
      ['/pagoexpress/webpayresult?estado=aprobado&idTransaccion=0123', 'webpayResult'],
      [`/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${ID.toUpperCase()}`, 'webpayResult'],
      [`/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${ID}&x=1`, 'webpayResult'],
      [`/pagoexpress/webpayresult?estado=aprobado&estado=error&idTransaccion=${ID}`, 'webpayResult'],
      [`/pagoexpress/webpayresult?estado=aprobadox&idTransaccion=${ID}`, 'webpayResult'],
      ['/pagoexpress/webpayresult?estado=aprobado', 'webpayResult'],
      ['/pagoexpress/webpayresult', 'webpayResult'],
      ['/pagoexpress/webpayresultestado=aprobado', 'not-found'],
      // Case matters, a parameter is one segment, and anything else is the not-found screen's page.
      ['/pagoonline/StepOne', 'not-found'],
      ['/pagoexpress/steptwo', 'not-found'],
      ['/pagoexpress/steptwo/PM/x', 'not-found'],
      ['/nada', 'not-found'],
      // The pages are never served as files, without their nonce.
      ['/index.html', 'not-found'],
      ['/shells/stepTwo.html', 'not-found'],
      ['/shells/routes.json', 'not-found'],
    ];
    for (const [url, name] of expected) expect(await pageAt(app, url), url).toBe(name);
  });

  it('answers every route with index.html when the build lists no pages', async () => {
    const app = await serve(webBuild(false));
    for (const url of ['/', '/pagoonline/stepone', '/nada']) expect(await pageAt(app, url), url).toBe('home');
  });

  it('matches route paths like the router: literal, case-sensitive, one segment per parameter', () => {
    expect(routeMatcher('/comprobante/verificar/:codigo')('/comprobante/verificar/ABC')).toBe(true);
    expect(routeMatcher('/comprobante/verificar/:codigo')('/comprobante/verificar/')).toBe(false);
    expect(routeMatcher('/pagoexpress/:category/coopmethodpay')('/pagoexpress/PM/coopmethodpay')).toBe(true);
    expect(routeMatcher('/pagoexpress/:category/coopmethodpay')('/pagoexpress/PM/coopmethodpayX')).toBe(false);
    expect(routeMatcher('/a.b')('/aXb')).toBe(false);
  });
});
