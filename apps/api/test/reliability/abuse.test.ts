import { and, eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { CSP_NONCE_PLACEHOLDER } from '../../src/plugins/external/web-app';
import { accounts, auditLog, coordinateCards, members, passwordClientGuards, sessions, transactions } from '../../src/db/schema';
import type { WebpayClient } from '../../src/services/webpay-client';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { codeOf, listar, oldestOf, post, seleccionar, solveCaptcha, startCard } from './flows';
import { injectTarget, jsonOf, type HttpResponse, type Target } from './http';
import { captureLedger, checkInvariants } from './ledger';
import { devicePending, enrolDevice, productNumbered } from '../support/member-calls';
import { DECISION_PATH, DECISION_RESPONSE } from '@pago/domain/call-autorizador';
import { recordFigures } from './settings';

// Part 2 of the reliability suite: rate limits, lockouts, captcha replay, session binding and expiry, object-level
// authorisation (OWASP API1) and security headers. Each abuse must be refused and must move nothing.

const AUT = 'autenticaConsultaFactoresResponse';
const AUZ = 'autorizarPagoProductoCVResponse';
const PAG = 'pagarProductoCVResponse';
const FAST_CAPTCHA = { altchaCounter: { min: 10, max: 50 } };

const autentica = (target: Target, token: string, payerRut: string, clave: string, captcha: string) => {
  const [rut, dv] = payerRut.split('-') as [string, string];
  return post(
    target,
    '/prod/pago/producto/cuentavista/autentica',
    { autenticaConsultaFactoresRequest: { userId: payerRut, canalLlamada: 'PGEX', token, autenticacion: { rut, dv, clave } } },
    { authorization: captcha },
  );
};
const autorizar = (target: Target, token: string, rut: string, rutPago: string, factor: 1 | 2 = 1) =>
  post(target, '/prod/pago/producto/cuentavista/autorizar', { autorizarPagoProductoCVRequest: { userId: rutPago, canalLlamada: 'PGEX', token, factor, rut, rutPago } });
const pagar = (target: Target, token: string, rutTitular: string, rutPago: string, numeroCuenta: string, valores: string[], factor: 1 | 2 = 1) =>
  post(target, '/prod/pago/producto/cuentavista/pagar', {
    pagarProductoCVRequest: { userId: rutPago, canalLlamada: 'PGEX', token, rutTitular, numeroCuenta, rutPago, factor, desafio: { item: valores.map((valor) => ({ valor })) } },
  });
const consultar = (target: Target, token: string, idTransaccion: string) =>
  post(target, '/prod/pago/consultar', { consultarPagoRequest: { userId: 'x', canalLlamada: 'PGEX', token, idTransaccion } });
const enviar = (target: Target, token: string, rut: string, correo = 'alguien@example.cl') =>
  post(
    target,
    '/prod/notificaciones/enviar',
    { enviarComprobantePagoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, correo } },
    { authorization: `Basic ${Buffer.from(`${rut}:${token}`).toString('base64')}` },
  );
const pdf = (target: Target, token: string, idTransaccion: string) => post(target, '/api/comprobante/pdf', { token, idTransaccion });
const bearer = (target: Target, url: string, token: string, payload: unknown) => post(target, url, payload, { authorization: `Bearer ${token}` });
const coordinatesFor = (res: HttpResponse, payerRut: string) => {
  const card = demoCoordinateCard(payerRut);
  return jsonOf<Record<string, { desafio: { item: { valor: string }[] } }>>(res)[AUZ]!.desafio.item.map((i) => card[i.valor]!);
};

/** A member's session with a pending selection of the oldest instalment of a product (or the first product). */
async function pendingSelection(target: Target, rut: string, numeroProducto?: string) {
  const { token, productos } = await listar(target, rut);
  const product = numeroProducto ? productNumbered(productos, numeroProducto) : productos[0]!;
  const producto = [oldestOf(product, 1)];
  const sel = await seleccionar(target, token, rut, producto);
  return { token, idTransaccion: sel.idTransaccion, total: sel.montoTotal, producto };
}

/** Logged in as the payer and holding a coordinate challenge: ready for call 6. */
async function readyToPay(target: Target, rut: string, numeroProducto?: string, payerRut = rut) {
  const s = await pendingSelection(target, rut, numeroProducto);
  const login = await autentica(target, s.token, payerRut, '1234', await solveCaptcha(target));
  const numeroCuenta = jsonOf<Record<string, { numeroCuenta: string }>>(login)[AUT]!.numeroCuenta;
  const challenge = await autorizar(target, s.token, rut, payerRut, 1);
  return { ...s, numeroCuenta, valores: coordinatesFor(challenge, payerRut) };
}

let abusesRefused = 0;
const refused = (n = 1) => (abusesRefused += n);

describe('rate limits answer 429 with code 514 before any work is done', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { config: { ...FAST_CAPTCHA, trustProxy: ['10.0.0.0/8'] }, rateLimits: { loginPerIp: 3, payPerIp: 3, mailPerSession: 2, captchaPerIp: 60, logPerIp: 30 } });
  });
  afterAll(async () => {
    await t.close();
  });
  // Resolved when a request is sent: the app only exists once beforeAll has run.
  const from = (ip: string): Target => ({ name: ip, request: (r) => injectTarget(t.app, ip, ip).request(r) });
  const setup = from('10.0.0.1');

  const expectLimited = (res: HttpResponse, responseName: string) => {
    expect(res.status).toBe(429);
    expect(codeOf(res, responseName)).toBe('514');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    refused();
  };

  it('limits call 4 (autentica) per address, and a limited call spends neither the captcha nor a password attempt', async () => {
    const s = await pendingSelection(setup, '9876543-3');
    const attacker = from('10.0.1.1');
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push(codeOf(await autentica(attacker, s.token, '9876543-3', 'mala', await solveCaptcha(setup)), AUT));
    expect(codes).toEqual(['45203113', '45203113', '45203016']);
    await t.database.db.update(members).set({ passwordFailures: 0, passwordBlockedAt: null }).where(eq(members.rut, '9876543-3'));
    await t.database.db.delete(passwordClientGuards).where(eq(passwordClientGuards.rut, '9876543-3'));
    const captcha = await solveCaptcha(setup);
    expectLimited(await autentica(attacker, s.token, '9876543-3', 'mala', captcha), AUT);
    const [member] = await t.database.db.select().from(members).where(eq(members.rut, '9876543-3'));
    expect(member?.passwordFailures).toBe(0);
    // The captcha of the refused call is still good elsewhere: the limit ran before anything was spent.
    expect(codeOf(await autentica(from('10.0.1.2'), s.token, '9876543-3', '1234', captcha), AUT)).toBeUndefined();
  });

  it('limits call 5 (autorizar) per address', async () => {
    const s = await pendingSelection(setup, '15432876-9');
    const attacker = from('10.0.2.1');
    for (let i = 0; i < 3; i++) expect((await autorizar(attacker, s.token, '15432876-9', '15432876-9')).status).toBe(200);
    expectLimited(await autorizar(attacker, s.token, '15432876-9', '15432876-9'), AUZ);
  });

  it('limits call 6 (pagar) per address, and a limited call neither pays nor counts a coordinate failure', async () => {
    const p = await readyToPay(setup, '11111111-1', '630055667788');
    const attacker = from('10.0.3.1');
    for (let i = 0; i < 3; i++) expect(codeOf(await pagar(attacker, p.token, '11111111-1', '11111111-1', '000000000000', p.valores), PAG)).toBe('440');
    const before = await captureLedger(t.database.db);
    expectLimited(await pagar(attacker, p.token, '11111111-1', '11111111-1', p.numeroCuenta, p.valores), PAG);
    expect((await checkInvariants(t.database.db, before)).totals).toEqual(before.totals);
    // The same answers from another address still pay: the limited call consumed nothing.
    expect(codeOf(await pagar(from('10.0.3.2'), p.token, '11111111-1', '11111111-1', p.numeroCuenta, p.valores), PAG)).toBeUndefined();
  });

  it('limits the payment host (calls 9 and 10) per address', async () => {
    const s = await pendingSelection(setup, '14141414-3');
    const attacker = from('10.0.4.1');
    for (let i = 0; i < 3; i++) expect((await bearer(attacker, '/api/pagoexpress/auth', s.token, { idTransaction: s.idTransaccion })).status).toBe(200);
    expectLimited(await bearer(attacker, '/api/pagoexpress/auth', s.token, { idTransaction: s.idTransaccion }), 'authResponse');
    expectLimited(await bearer(attacker, '/api/pagoexpress/initMall', 'x', { sessionId: 'x', transactionId: s.idTransaccion, storesTransaction: [{ amount: 1, commerceCode: '597055555536', transactionId: 'x' }] }), 'initMallResponse');
  });

  it('limits the voucher e-mail per session, call 11 and the captcha challenge per address', async () => {
    const p = await readyToPay(setup, '11111111-1', '700011111111');
    await pagar(setup, p.token, '11111111-1', '11111111-1', p.numeroCuenta, p.valores);
    const mailer = from('10.0.5.1');
    for (let i = 0; i < 2; i++) expect(jsonOf<Record<string, { codigo?: string }>>(await enviar(mailer, p.token, '11111111-1')).enviarComprobantePagoResponse?.codigo).toBe('200');
    // Another address does not buy the session more e-mails.
    expectLimited(await enviar(from('10.0.5.2'), p.token, '11111111-1'), 'enviarComprobantePagoResponse');

    const reporter = from('10.0.6.1');
    const report = { guardarLogRequest: { idPlataforma: 'web', origenLlamada: 'a', destinoLlamada: 'b', nivelLog: 'INFO', detalleLog: 'x', rut: '' } };
    for (let i = 0; i < 30; i++) expect((await post(reporter, '/prod/auditoria/guardarlog', report)).status).toBe(200);
    expectLimited(await post(reporter, '/prod/auditoria/guardarlog', report), 'guardarLogResponse');

    const solver = from('10.0.7.1');
    for (let i = 0; i < 60; i++) expect((await solver.request({ method: 'GET', url: '/api/captcha/challenge' })).status).toBe(200);
    expectLimited(await solver.request({ method: 'GET', url: '/api/captcha/challenge' }), 'captchaResponse');
  });

  // Behind one load balancer (TRUST_PROXY_HOPS=1), only the address the balancer appends counts: whatever the
  // client wrote before it in X-Forwarded-For buys no fresh per-address budget.
  it('does not give a forged X-Forwarded-For a fresh per-address budget', async () => {
    const s = await pendingSelection(setup, '16789012-1');
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/prod/pago/producto/cuentavista/autorizar',
        remoteAddress: '10.0.8.254',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` },
        payload: { autorizarPagoProductoCVRequest: { userId: 'x', canalLlamada: 'PGEX', token: s.token, factor: 1, rut: '16789012-1', rutPago: '16789012-1' } },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    refused(2);
  });

  // Behind the trusted load balancer (TRUST_PROXY), each member is told apart by the address it forwards.
  it('tells the members behind a trusted load balancer apart by the address it forwards', async () => {
    const s = await pendingSelection(setup, '16789012-1');
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/prod/pago/producto/cuentavista/autorizar',
        remoteAddress: '10.0.9.254',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${10 + i}` },
        payload: { autorizarPagoProductoCVRequest: { userId: 'x', canalLlamada: 'PGEX', token: s.token, factor: 1, rut: '16789012-1', rutPago: '16789012-1' } },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });
});

describe.each(DATABASE_KINDS)('lockouts, captcha replay and sessions (%s)', (kind) => {
  let t: TestApp;
  let target: Target;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: FAST_CAPTCHA });
    target = injectTarget(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('blocks the password at the third wrong one even when ten arrive at once, and then refuses the right one', async () => {
    const before = await captureLedger(t.database.db);
    const s = await pendingSelection(target, '15432876-9', '630043218765');
    const captchas = await Promise.all(Array.from({ length: 10 }, () => solveCaptcha(target)));
    const codes = await Promise.all(captchas.map((c) => autentica(target, s.token, '15432876-9', 'mala', c).then((r) => codeOf(r, AUT))));
    expect(codes.filter((c) => c === '45203113')).toHaveLength(2);
    expect(codes.filter((c) => c === '45203016')).toHaveLength(8);
    refused(10);
    const [member] = await t.database.db.select().from(members).where(eq(members.rut, '15432876-9'));
    expect(member).toMatchObject({ passwordFailures: 3 });
    // Decision 032: three wrong ones block the payer on the client that gave them.
    const [guard] = await t.database.db.select().from(passwordClientGuards).where(eq(passwordClientGuards.rut, '15432876-9'));
    expect(guard).toMatchObject({ passwordFailures: 3 });
    expect(guard?.passwordBlockedAt).not.toBeNull();
    // A new session and the right password change nothing: the block is the payer's on this client, not the session's.
    const again = await pendingSelection(target, '15432876-9', '630043218765');
    expect(codeOf(await autentica(target, again.token, '15432876-9', '1234', await solveCaptcha(target)), AUT)).toBe('45203016');
    expect(await t.database.db.$count(auditLog, eq(auditLog.kind, 'clave.bloqueada'))).toBe(1);
    expect((await checkInvariants(t.database.db, before)).totals).toEqual(before.totals);
    await t.database.db.update(members).set({ passwordFailures: 0, passwordBlockedAt: null }).where(eq(members.rut, '15432876-9'));
    await t.database.db.delete(passwordClientGuards).where(eq(passwordClientGuards.rut, '15432876-9'));
  });

  it('spends a coordinate challenge on its first answer, counts one failure for ten racing answers, and blocks the card at the third', async () => {
    const before = await captureLedger(t.database.db);
    const p = await readyToPay(target, '9876543-3', '410098765431');
    const wrongFor = (valores: string[]) => valores.map((v) => String((Number(v) + 1) % 100).padStart(2, '0'));
    const wrong = wrongFor(p.valores);
    const codes = await Promise.all(Array.from({ length: 10 }, () => pagar(target, p.token, '9876543-3', '9876543-3', p.numeroCuenta, wrong).then((r) => codeOf(r, PAG))));
    expect(codes.filter((c) => c === '5203007')).toHaveLength(1);
    expect(codes.filter((c) => c === '485')).toHaveLength(9);
    // The right answers on the spent challenge are refused too: each challenge gets one guess.
    expect(codeOf(await pagar(target, p.token, '9876543-3', '9876543-3', p.numeroCuenta, p.valores), PAG)).toBe('485');
    const outcomes = [];
    for (let i = 0; i < 2; i++) {
      const challenge = await autorizar(target, p.token, '9876543-3', '9876543-3');
      const answers = wrongFor(coordinatesFor(challenge, '9876543-3'));
      outcomes.push(codeOf(await pagar(target, p.token, '9876543-3', '9876543-3', p.numeroCuenta, answers), PAG));
    }
    expect(outcomes).toEqual(['5203007', '5203017']);
    expect(codeOf(await autorizar(target, p.token, '9876543-3', '9876543-3'), AUZ)).toBe('45203017');
    refused(13);
    expect((await checkInvariants(t.database.db, before)).totals).toEqual(before.totals);
    await t.database.db.update(coordinateCards).set({ failures: 0, blockedAt: null });
  });

  it('takes a captcha solution once: replayed on the login, or raced on five product lists', async () => {
    const captcha = await solveCaptcha(target);
    expect(codeOf(await post(target, '/prod/producto/listar', { listarDetalleProductosRequest: { userId: 'x', canalLlamada: 'PGEX', rut: '12345678-5' } }, { authorization: captcha }), 'listarDetalleProductosResponse')).toBeUndefined();
    const s = await pendingSelection(target, '12345678-5');
    expect(codeOf(await autentica(target, s.token, '12345678-5', '1234', captcha), AUT)).toBe('482');
    const sessionsBefore = await t.database.db.$count(sessions);
    const raced = await Promise.all(
      Array.from({ length: 5 }, () => post(target, '/prod/producto/listar', { listarDetalleProductosRequest: { userId: 'x', canalLlamada: 'PGEX', rut: '12345678-5' } }, { authorization: captcha })),
    );
    expect(raced.map((r) => codeOf(r, 'listarDetalleProductosResponse'))).toEqual(['482', '482', '482', '482', '482']);
    const fresh = await solveCaptcha(target);
    const race = await Promise.all(
      Array.from({ length: 5 }, () => post(target, '/prod/producto/listar', { listarDetalleProductosRequest: { userId: 'x', canalLlamada: 'PGEX', rut: '12345678-5' } }, { authorization: fresh })),
    );
    expect(race.filter((r) => codeOf(r, 'listarDetalleProductosResponse') === undefined)).toHaveLength(1);
    expect(await t.database.db.$count(sessions)).toBe(sessionsBefore + 1);
    refused(10);
  });

  it('binds the session token to its RUT on every call that names one', async () => {
    const a = await pendingSelection(target, '11111111-1', '410087654321');
    const other = '9876543-3';
    const sel = await post(target, '/prod/producto/seleccionar', { seleccionarProductoRequest: { userId: 'x', canalLlamada: 'PGEX', token: a.token, rut: other, producto: a.producto } });
    expect(codeOf(sel, 'seleccionarProductoResponse')).toBe('476');
    expect(codeOf(await autorizar(target, a.token, other, other), AUZ)).toBe('476');
    expect(codeOf(await pagar(target, a.token, other, other, '000031245603', ['00', '00', '00']), PAG)).toBe('476');
    expect(codeOf(await enviar(target, a.token, other), 'enviarComprobantePagoResponse')).toBe('476');
    refused(4);
  });

  it('expires a session after sessionTimeOut minutes idle and after its absolute lifetime, on every call', async () => {
    const calls = (s: Awaited<ReturnType<typeof pendingSelection>>, rut: string) => [
      post(target, '/prod/producto/seleccionar', { seleccionarProductoRequest: { userId: 'x', canalLlamada: 'PGEX', token: s.token, rut, producto: s.producto } }).then((r) => codeOf(r, 'seleccionarProductoResponse')),
      solveCaptcha(target).then((c) => autentica(target, s.token, rut, '1234', c)).then((r) => codeOf(r, AUT)),
      autorizar(target, s.token, rut, rut).then((r) => codeOf(r, AUZ)),
      pagar(target, s.token, rut, rut, '000031245601', ['00', '00', '00']).then((r) => codeOf(r, PAG)),
      consultar(target, s.token, s.idTransaccion).then((r) => codeOf(r, 'consultarPagoResponse')),
      enviar(target, s.token, rut).then((r) => codeOf(r, 'enviarComprobantePagoResponse')),
      bearer(target, '/api/pagoexpress/auth', s.token, { idTransaction: s.idTransaccion }).then((r) => String(jsonOf<{ code: number }>(r).code)),
      pdf(target, s.token, s.idTransaccion).then((r) => codeOf(r, 'comprobantePdfResponse')),
    ];
    const idle = await pendingSelection(target, '11111111-1', '410087654321');
    await t.database.db.execute(sql`update sessions set last_seen_at = now() - interval '6 minutes' where rut = '11111111-1'`);
    expect(await Promise.all(calls(idle, '11111111-1'))).toEqual(Array(8).fill('476'));
    const old = await pendingSelection(target, '11111111-1', '410087654321');
    await t.database.db.execute(sql`update sessions set created_at = now() - interval '61 minutes' where rut = '11111111-1' and last_seen_at > now() - interval '1 minute'`);
    expect(await Promise.all(calls(old, '11111111-1'))).toEqual(Array(8).fill('476'));
    refused(16);
  });
});

describe.each(DATABASE_KINDS)('object-level authorisation: another member’s valid session never reads or pays someone else’s transaction (%s)', (kind) => {
  let t: TestApp;
  let target: Target;
  beforeAll(async () => {
    // Webpay is not what is tested here: a stand-in that opens every form.
    const webpay: WebpayClient = {
      create: async () => ({ ok: true, data: { token: randomBytes(32).toString('hex'), url: 'http://webpay.test/form' } }),
      commit: async () => ({ ok: false, kind: 'unavailable', message: 'not used' }),
      status: async () => ({ ok: false, kind: 'unavailable', message: 'not used' }),
      refund: async () => ({ ok: false, kind: 'unavailable', message: 'not used' }),
    };
    t = await startTestApp(kind, { config: FAST_CAPTCHA, webpay });
    target = injectTarget(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses every call that names another member’s transaction, product, RUT or push', async () => {
    const A = '11111111-1';
    const B = '9876543-3';
    // A: one paid transaction and one pending; B: a valid session of its own.
    const paid = await readyToPay(target, A, '630055667788');
    expect(codeOf(await pagar(target, paid.token, A, A, paid.numeroCuenta, paid.valores), PAG)).toBeUndefined();
    const pendingA = await pendingSelection(target, A, '410087654321');
    const b = await pendingSelection(target, B, '410098765431');
    const before = await captureLedger(t.database.db);
    const trxCount = await t.database.db.$count(transactions);

    // Reading A's voucher, by call 7, the PDF or the e-mail.
    expect(codeOf(await consultar(target, b.token, paid.idTransaccion), 'consultarPagoResponse')).toBe('516');
    const pdfRes = await pdf(target, b.token, paid.idTransaccion);
    expect([pdfRes.status, codeOf(pdfRes, 'comprobantePdfResponse')]).toEqual([404, '516']);
    expect(codeOf(await enviar(target, b.token, A), 'enviarComprobantePagoResponse')).toBe('476');
    expect(codeOf(await enviar(target, b.token, B), 'enviarComprobantePagoResponse')).toBe('516');
    // Selecting A's products in B's session.
    const foreign = await post(target, '/prod/producto/seleccionar', { seleccionarProductoRequest: { userId: 'x', canalLlamada: 'PGEX', token: b.token, rut: B, producto: pendingA.producto } });
    expect(codeOf(foreign, 'seleccionarProductoResponse')).toBe('47678');
    // Acting on A's transaction with B's session: calls 5 and 6 name A, or act on B's own transaction only.
    expect(codeOf(await autorizar(target, b.token, A, B), AUZ)).toBe('476');
    expect(codeOf(await pagar(target, b.token, A, B, paid.numeroCuenta, paid.valores), PAG)).toBe('476');
    expect(codeOf(await pagar(target, b.token, B, A, paid.numeroCuenta, paid.valores), PAG)).toBe('440');
    // Call 4 acts on the session's own transaction: B logging in touches B's, never A's pending one.
    expect(codeOf(await autentica(target, b.token, B, '1234', await solveCaptcha(target)), AUT)).toBeUndefined();
    const [aPending] = await t.database.db.select().from(transactions).where(eq(transactions.idTransaccion, pendingA.idTransaccion));
    expect(aPending).toMatchObject({ status: 'pending', payerRut: null, accountId: null, loginAt: null });
    // The card path with A's transaction id.
    expect(jsonOf(await bearer(target, '/api/pagoexpress/auth', b.token, { idTransaction: pendingA.idTransaccion }))).toMatchObject({ code: 515 });
    const bCard = await startCard(target, { token: b.token, rut: B }, { idTransaccion: b.idTransaccion, producto: b.producto });
    const stores = [{ amount: 62_150, commerceCode: '597055555536', transactionId: '410087654321' }];
    expect(jsonOf(await bearer(target, '/api/pagoexpress/initMall', bCard.hostToken, { sessionId: 'x', transactionId: pendingA.idTransaccion, storesTransaction: stores }))).toMatchObject({ code: 515 });
    expect(jsonOf(await bearer(target, '/api/pagoexpress/initMall', b.token, { sessionId: 'x', transactionId: pendingA.idTransaccion, storesTransaction: stores }))).toMatchObject({ code: 515 });
    // Guessed ids find nothing.
    for (let i = 0; i < 20; i++) {
      const guess = randomBytes(16).toString('hex');
      expect(codeOf(await consultar(target, b.token, guess), 'consultarPagoResponse')).toBe('516');
    }
    // C's push on the mobile authoriser is neither shown to B's phone nor decided by it, even signed by B's key.
    const cPhone = await enrolDevice(t.app, '14141414-3');
    const bPhone = await enrolDevice(t.app, B);
    const c = await pendingSelection(target, '14141414-3', '630014141414');
    await autentica(target, c.token, '14141414-3', '1234', await solveCaptcha(target));
    await autorizar(target, c.token, '14141414-3', '14141414-3', 2);
    const [push] = await devicePending(t.app, cPhone);
    expect(await devicePending(t.app, bPhone)).toEqual([]);
    expect(codeOf(await post(target, DECISION_PATH, await bPhone.decision(push!, 'aprobar')), DECISION_RESPONSE)).toBe('523');
    expect(await devicePending(t.app, cPhone)).toHaveLength(1);
    refused(31);

    const report = await checkInvariants(t.database.db, before);
    expect(report.violations).toEqual([]);
    expect(report.totals).toEqual(before.totals);
    // Only C's selection was created.
    expect(await t.database.db.$count(transactions)).toBe(trxCount + 1);
    const [aAccount] = await t.database.db.select({ saldo: accounts.saldo }).from(accounts).innerJoin(members, eq(members.id, accounts.memberId)).where(and(eq(members.rut, A)));
    expect(aAccount?.saldo).toBe(5_000_000 - 156_300);
  });
});

const WEB_INDEX = fileURLToPath(new URL('../../../web/index.html', import.meta.url));
const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** The shell has no inline script, no inline handler: a CSP without 'unsafe-inline' does not break it. */
function expectNoInlineCode(html: string, where: string) {
  expect([...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>/gi)].map((m) => m[0]), `inline <script> in ${where}`).toEqual([]);
  expect([...html.matchAll(/\son[a-z]+\s*=/gi)].map((m) => m[0]), `inline handler in ${where}`).toEqual([]);
}

describe('security headers on the SPA shell and on every kind of API answer', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    // The built SPA when there is one; otherwise a shell made from the web's index.html, served the same way.
    if (existsSync(join(WEB_DIST, 'index.html'))) dist = WEB_DIST;
    else {
      dist = mkdtempSync(join(tmpdir(), 'pago-web-'));
      // What the build adds for the style nonce (vite.config.ts, html.cspNonce).
      const nonceMeta = `<meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}">`;
      writeFileSync(join(dist, 'index.html'), readFileSync(WEB_INDEX, 'utf8').replace('<head>', `<head>${nonceMeta}`));
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    }
    t = await startTestApp('pglite', { config: { webDist: dist }, rateLimits: { loginPerIp: 1 } });
  });
  afterAll(async () => {
    await t.close();
    if (dist !== WEB_DIST) rmSync(dist, { recursive: true, force: true });
  });

  function expectSecurityHeaders(res: { headers: Record<string, unknown> }, where: string) {
    const h = res.headers as Record<string, string | undefined>;
    const csp = h['content-security-policy'] ?? '';
    const directive = (name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
    expect(csp, `CSP on ${where}`).not.toBe('');
    expect(directive('script-src'), where).toBe("script-src 'self'");
    expect(directive('style-src'), where).toMatch(/^style-src 'self'( 'nonce-[A-Za-z0-9+/]{22}==')?$/);
    expect(csp, where).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(directive('frame-ancestors'), where).toBe("frame-ancestors 'none'");
    expect(directive('object-src'), where).toBe("object-src 'none'");
    expect(directive('base-uri'), where).toBe("base-uri 'none'");
    const hsts = h['strict-transport-security'] ?? '';
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0), `HSTS on ${where}`).toBeGreaterThanOrEqual(31_536_000);
    expect(hsts, where).toContain('includeSubDomains');
    expect(h['referrer-policy'], where).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/);
    expect(h['x-content-type-options'], where).toBe('nosniff');
    expect(h['x-powered-by'], where).toBeUndefined();
    // Set with them, before any handler runs: an error or a refusal names its request too.
    expect(h['x-request-id'], `request id on ${where}`).toMatch(/^[0-9a-f-]{36}$/);
  }

  it('serves the SPA shell, its assets and its routes with the headers, and the shell has no inline code', async () => {
    expectNoInlineCode(readFileSync(WEB_INDEX, 'utf8'), 'apps/web/index.html');
    for (const url of ['/', '/pagoexpress/stepone', '/pagoexpress/successvoucher/abc']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expectSecurityHeaders(res, url);
      expectNoInlineCode(res.body, url);
    }
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec((await t.app.inject({ method: 'GET', url: '/' })).body)?.[1];
    if (asset) expectSecurityHeaders(await t.app.inject({ method: 'GET', url: asset }), asset);
  });

  it("gives every shell a style nonce of its own, in its policy and its page, for the dialogs' scroll lock", async () => {
    const nonces = [];
    for (const url of ['/', '/', '/pagoexpress/stepone']) {
      const res = await t.app.inject({ method: 'GET', url });
      const inPolicy = /style-src 'self' 'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
      expect(inPolicy, url).toBeDefined();
      expect(res.body).toContain(`<meta property="csp-nonce" nonce="${inPolicy}"`);
      expect(res.body).not.toContain(CSP_NONCE_PLACEHOLDER);
      nonces.push(inPolicy);
    }
    expect(new Set(nonces).size).toBe(3);
    // An API answer has no nonce: nothing it returns is a page.
    const api = await t.app.inject({ method: 'POST', url: '/prod/parametro/consultar', payload: { consultarParametrosRequest: { userId: 'x', canalLlamada: 'PGEX', tipo: 'PE' } } });
    expect(String(api.headers['content-security-policy'])).toContain("style-src 'self';");
  });

  it('answers every kind of API response with the headers: JSON, errors, limits, redirects, PDFs, sandbox and admin pages', async () => {
    const limited = { method: 'POST' as const, url: '/prod/pago/producto/cuentavista/autorizar', headers: { 'content-type': 'application/json' }, payload: { autorizarPagoProductoCVRequest: { userId: 'x', canalLlamada: 'PGEX', token: 'x', factor: 1, rut: '11111111-1', rutPago: '11111111-1' } } };
    await t.app.inject(limited);
    const cases: [string, Promise<{ statusCode: number; headers: Record<string, unknown> }>, number][] = [
      ['call 1', t.app.inject({ method: 'POST', url: '/prod/parametro/consultar', payload: { consultarParametrosRequest: { userId: 'x', canalLlamada: 'PGEX', tipo: 'PE' } } }), 200],
      ['400', t.app.inject({ method: 'POST', url: '/prod/parametro/consultar', payload: {} }), 400],
      ['415', t.app.inject({ method: 'POST', url: '/prod/parametro/consultar', headers: { 'content-type': 'text/plain' }, payload: 'x' }), 415],
      ['404', t.app.inject({ method: 'GET', url: '/prod/nada' }), 404],
      ['429', t.app.inject(limited), 429],
      ['Webpay return 303', t.app.inject({ method: 'GET', url: '/api/pagoexpress/webpay/return' }), 303],
      ['PDF 401', t.app.inject({ method: 'POST', url: '/api/comprobante/pdf', payload: { token: 'x', idTransaccion: '0'.repeat(32) } }), 401],
      ['captcha', t.app.inject({ method: 'GET', url: '/api/captcha/challenge' }), 200],
      ['sandbox page', t.app.inject({ method: 'GET', url: '/sandbox' }), 200],
      ['admin 401', t.app.inject({ method: 'GET', url: '/admin/parametros' }), 401],
      ['health', t.app.inject({ method: 'GET', url: '/health' }), 200],
    ];
    for (const [where, pending, status] of cases) {
      const res = await pending;
      expect(res.statusCode, where).toBe(status);
      expectSecurityHeaders(res, where);
    }
  });

  // Fastify's router answers these before any hook runs; only its `frameworkErrors` option reaches them.
  it('answers router errors with the envelope and the headers too', async () => {
    const long = await t.app.inject({ method: 'PUT', url: `/admin/parametros/${'x'.repeat(101)}` });
    expect(long.statusCode).toBe(414);
    expect(codeOf({ status: long.statusCode, headers: {}, body: long.body, raw: long.rawPayload }, 'errorResponse')).toBe('400');
    expectSecurityHeaders(long, 'router 414');
    expect(long.headers['x-request-id']).toBeTruthy();
    const malformed = await t.app.inject({ method: 'PUT', url: '/admin/parametros/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(codeOf({ status: malformed.statusCode, headers: {}, body: malformed.body, raw: malformed.rawPayload }, 'errorResponse')).toBe('400');
    expectSecurityHeaders(malformed, 'router 400');
  });
});

afterAll(() => {
  recordFigures({ section: 'abuse', inputsTried: abusesRefused, notes: 'rate limits, lockouts, captcha replay, sessions, object-level authorisation, headers' });
});
