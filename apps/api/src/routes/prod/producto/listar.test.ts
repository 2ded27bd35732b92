import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, sessions } from '../../../db/schema';
import { listProducts, postListar, solveCaptcha, productNumbered } from '../../../../test/support/member-calls';
import { DATABASE_KINDS, type SeededSnapshot, seededSnapshot, type TestApp } from '../../../../test/support/test-app';

const codeOf = (res: { json(): unknown }) =>
  (res.json() as { listarDetalleProductosResponse: { error?: { errores: { detalleError: { codigo: string } } } } })
    .listarDetalleProductosResponse.error?.errores.detalleError.codigo;

describe.each(DATABASE_KINDS)('POST /prod/producto/listar on %s', (kind) => {
  let t: TestApp;
  let seeded: SeededSnapshot;
  beforeAll(async () => {
    seeded = await seededSnapshot(kind);
  });
  afterAll(async () => {
    await seeded?.close();
  });
  // Each test on its own copy of the seeded members.
  beforeEach(async () => {
    t = await seeded.start({ config: { altchaSecret: 'a-known-secret-for-the-expiry-test-000' } });
  });
  afterEach(async () => {
    await t?.close();
  });

  it('answers the member’s products in the wire shapes of the specification', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const families = productos.map((p) => p.tipoFamiliaProducto).sort();
    expect(families).toEqual(['AH', 'AH', 'CP', 'HI', 'PC', 'PC', 'PM', 'TC']);
    const ah = productos.find((p) => p.tipoFamiliaProducto === 'AH')!;
    const tc = productos.find((p) => p.tipoFamiliaProducto === 'TC')!;
    expect(Array.isArray(ah.listaDetalleProductos)).toBe(false);
    expect(Array.isArray(tc.listaDetalleProductos)).toBe(false);
    expect(tc.listaDetalleProductos).toMatchObject({ montoPendiente: 350_000, pagoMinimo: 35_000, codigoEstadoCuota: 'A' });
    expect(tc.fechaFacturacion).toMatch(/^\d{8}$/);
    const offer = productNumbered(productos, '410012345678');
    expect(offer).toMatchObject({ permiteAbono: true, permiteMultipleAbono: true, montoMinimoAbonoMultiple: 10_000 });
    expect(offer.listaDetalleProductos).toHaveLength(4);
    const convenio = productNumbered(productos, '410087654321');
    expect((convenio.listaDetalleProductos as { medioPago: string }[]).every((d) => d.medioPago === 'CONVENIO')).toBe(true);
    const cp = productos.find((p) => p.tipoFamiliaProducto === 'CP')!;
    expect(cp.listaDetalleProductos).toHaveLength(6);
  });

  it('derives the overdue state: 9.876.543-3’s mortgage has two instalments 75 and 45 days overdue', async () => {
    const { productos } = await listProducts(t.app, '9876543-3');
    const hi = productos.find((p) => p.tipoFamiliaProducto === 'HI')!;
    const detalles = hi.listaDetalleProductos as { codigoEstadoCuota: string; diasMora: number }[];
    expect(detalles.map((d) => [d.codigoEstadoCuota, d.diasMora])).toEqual([
      ['V', 75],
      ['V', 45],
      ['A', 0],
      ['A', 0],
    ]);
  });

  it('answers the informative codes of 18.765.432-7 and 10.203.040-0', async () => {
    expect(codeOf(await postListar(t.app, '18765432-7', await solveCaptcha(t.app)))).toBe('47501');
    expect(codeOf(await postListar(t.app, '10203040-0', await solveCaptcha(t.app)))).toBe('465');
  });

  it('answers an empty list to a member without products and, alike, to a RUT that is not a member', async () => {
    expect((await listProducts(t.app, '7654321-6')).productos).toEqual([]);
    expect((await listProducts(t.app, '5126663-3')).productos).toEqual([]);
  });

  it('stores only the hash of the session token, bound to the RUT', async () => {
    const { token } = await listProducts(t.app, '12345678-5');
    const rows = await t.database.db.select().from(sessions);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.some((r) => r.rut === '12345678-5')).toBe(true);
  });

  it('refuses a missing, malformed, tampered, expired or replayed captcha with 482', async () => {
    expect(codeOf(await postListar(t.app, '11111111-1'))).toBe('482');
    expect(codeOf(await postListar(t.app, '11111111-1', 'not-base64-json'))).toBe('482');
    const good = await solveCaptcha(t.app);
    const tampered = JSON.parse(Buffer.from(good, 'base64').toString());
    tampered.solution.derivedKey = tampered.solution.derivedKey.replace(/^./, (c: string) => (c === "0" ? "1" : "0"));
    expect(codeOf(await postListar(t.app, '11111111-1', Buffer.from(JSON.stringify(tampered)).toString('base64')))).toBe('482');
    expect(codeOf(await postListar(t.app, '11111111-1', good))).toBeUndefined();
    const sessionsBefore = (await t.database.db.select().from(sessions)).length;
    const replay = await postListar(t.app, '11111111-1', good);
    expect(codeOf(replay)).toBe('482');
    // The replay opened no session, and its refusal is audited as one.
    expect((await t.database.db.select().from(sessions)).length).toBe(sessionsBefore);
    const [refusal] = await t.database.db.select().from(auditLog).where(eq(auditLog.requestId, replay.headers['x-request-id'] as string));
    expect(refusal).toMatchObject({ kind: 'captcha.rechazado', rutMasked: expect.stringMatching(/^\*+/), detail: { motivo: 'replayed' } });

    const secret = 'a-known-secret-for-the-expiry-test-000';
    const expired = await createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      counter: 10,
      deriveKey,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: `${secret}:key`,
      expiresAt: new Date(Date.now() - 1000),
    });
    const solution = await solveChallenge({ challenge: expired, deriveKey });
    const payload = Buffer.from(JSON.stringify({ challenge: expired, solution })).toString('base64');
    expect(codeOf(await postListar(t.app, '11111111-1', payload))).toBe('482');
  });

  it('refuses a malformed body with 400 and never a 500', async () => {
    for (const payload of [{}, { listarDetalleProductosRequest: { rut: '1' } }, { listarDetalleProductosRequest: { userId: 'x', canalLlamada: 'PGEX', rut: 'no-es-rut' } }]) {
      const res = await t.app.inject({ method: 'POST', url: '/prod/producto/listar', payload });
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('400');
    }
  });
});

describe('rate limits on the product list', () => {
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
    t = await seeded.start({ rateLimits: { listarPerIp: 6, listarPerRut: 3 } });
  });
  afterEach(async () => {
    await t?.close();
  });

  it('bounds the look-ups of one RUT and of one address with 514', async () => {
    const rutCodes = [];
    for (let i = 0; i < 4; i++) rutCodes.push((await postListar(t.app, '11111111-1', await solveCaptcha(t.app))).statusCode);
    expect(rutCodes).toEqual([200, 200, 200, 429]);
    const limited = await postListar(t.app, '11111111-1', await solveCaptcha(t.app));
    expect(codeOf(limited)).toBe('514');

    // Other RUTs still go through until the address itself is over its limit.
    const other = [];
    for (const rut of ['12345678-5', '9876543-3', '15432876-9']) other.push((await postListar(t.app, rut, await solveCaptcha(t.app))).statusCode);
    expect(other.slice(0, 1)).toEqual([200]);
    expect(other.at(-1)).toBe(429);
    // Only the allowed look-ups opened a session.
    expect(await t.database.db.$count(sessions)).toBe(4);

    // A forged X-Forwarded-For does not make a new address: no proxy is trusted unless configured.
    const forged = await t.app.inject({
      method: 'POST',
      url: '/prod/producto/listar',
      headers: { 'content-type': 'application/json', authorization: await solveCaptcha(t.app), 'x-forwarded-for': '203.0.113.77' },
      payload: { listarDetalleProductosRequest: { userId: 'x', canalLlamada: 'PGEX', rut: '7654321-6' } },
    });
    expect(forged.statusCode).toBe(429);
  });

  it('counts every address of one IPv6 /64 as one client: bad captchas from many of them stop at the limit, leaving few audit lines', async () => {
    const statuses = [];
    for (let i = 1; i <= 20; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/prod/producto/listar',
        remoteAddress: `2001:db8:77:1::${i.toString(16)}`,
        headers: { 'content-type': 'application/json', authorization: 'no-es-un-captcha' },
        payload: { listarDetalleProductosRequest: { userId: 'x', canalLlamada: 'PGEX', rut: '11111111-1' } },
      });
      statuses.push(res.statusCode);
    }
    // One client's three look-ups of this RUT (listarPerRut), not one for each address.
    expect(statuses.filter((s) => s !== 429)).toHaveLength(3);
    expect(await t.database.db.$count(auditLog, eq(auditLog.kind, 'captcha.rechazado'))).toBe(3);
    // Another /64 is another client.
    const elsewhere = await t.app.inject({ method: 'POST', url: '/prod/producto/listar', remoteAddress: '2001:db8:77:2::1', headers: { 'content-type': 'application/json', authorization: await solveCaptcha(t.app) }, payload: { listarDetalleProductosRequest: { userId: 'x', canalLlamada: 'PGEX', rut: '12345678-5' } } });
    expect(elsewhere.statusCode).toBe(200);
  });
});
