import { count, eq, ne, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { auditLog, authoriserEnrolmentCodes, machineTokens, members, operatorChanges, operatorRoles, parameters, webpayAttempts } from '../../src/db/schema';
import { asOperator, operatorSession, type OperatorSession } from '../support/operator-session';
import { DATABASE_KINDS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { OPERATOR_ROUTES } from '../../src/operator/access';
import { DEMO_OPERATORS } from '../../src/operator/demo-operators';
import { ROLE_PERMISSIONS, ROLES, type Permission } from '../../src/operator/roles';
import fc from 'fast-check';

const REFUSED = 'operador.acceso.rechazado';
const refusals = (db: Db) => db.$count(auditLog, eq(auditLog.kind, REFUSED));

/** A request for each operator route, its parameters filled with plausible values. */
function requestOf(route: { method: string; url: string }) {
  const id = route.url.startsWith('/admin/transacciones') ? 'a'.repeat(32) : randomUUID();
  let url = route.url.replace(':rut', '11111111-1').replace(':nombre', 'Mantencion').replace(':sujeto', 'alguien').replace(':ordenCompra', 'PO0123456789abcdef').replace(':fecha', '2026-01-05').replace(':id', id);
  if (url.includes('/conciliacion/')) url += '?fecha=20260105';
  if (url.startsWith('/admin/cierre') && route.method === 'GET') url += '?fecha=2026-01-05';
  const bodies: Record<string, object> = {
    'PUT /admin/parametros/:nombre': { valor: '1' },
    'POST /admin/importacion': { corte: new Date().toISOString(), socios: [{ rut: '11111111-1' }] },
    'POST /admin/tokens': { nombre: 'intruso', alcances: ['importacion'] },
    'PUT /admin/operadores/:sujeto/roles': { roles: ['admin'] },
    'POST /admin/webpay/:ordenCompra/devolver': { motivo: 'Cobro doble del socio' },
    'POST /admin/cierre/:fecha/firmar': { motivo: 'Revisado contra la cartola' },
    'POST /admin/transacciones/:id/anular': { motivo: 'Pago al producto equivocado' },
  };
  const payload = bodies[`${route.method} ${route.url}`];
  return { method: route.method as 'GET' | 'POST' | 'PUT', url, ...(payload === undefined ? {} : { payload }) };
}

/** Everything an operator call could change: refused calls must leave it exactly as it was, but for their own audit line. */
async function fingerprint(db: Db): Promise<string> {
  const [audit] = await db.select({ n: count() }).from(auditLog).where(ne(auditLog.kind, REFUSED));
  const [tokens] = await db.select({ n: count() }).from(machineTokens);
  const [changes] = await db.select({ n: count() }).from(operatorChanges);
  const [roles] = await db.select({ n: count() }).from(operatorRoles);
  const [codes] = await db.select({ n: count() }).from(authoriserEnrolmentCodes);
  const values = await db.select({ v: sql<string>`string_agg(${parameters.nombre} || '=' || ${parameters.valor}, ',' order by ${parameters.nombre})` }).from(parameters);
  const blocks = await db.select({ v: sql<string>`string_agg(coalesce(${members.passwordBlockedAt}::text, '-'), ',' order by ${members.rut})` }).from(members);
  const attempts = await db.select({ v: sql<string>`string_agg(${webpayAttempts.buyOrder} || '=' || ${webpayAttempts.status}, ',' order by ${webpayAttempts.buyOrder})` }).from(webpayAttempts);
  return JSON.stringify([audit, tokens, changes, roles, codes, values, blocks, attempts]);
}

describe.each(DATABASE_KINDS)('the role matrix, checked on the server for every operator route, on %s', (kind) => {
  let t: TestApp;
  const sessions = new Map<string, OperatorSession>();
  let scopedToken = '';
  const routes = () => [...OPERATOR_ROUTES.values()];

  beforeAll(async () => {
    t = await startTestApp(kind);
    for (const demo of DEMO_OPERATORS) sessions.set(demo.usuario, await operatorSession(t.app.operator, demo.usuario));
    const issued = await t.app.operator.inject({ method: 'POST', url: '/admin/tokens', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { nombre: 'carga-nocturna', alcances: ['importacion'] } });
    scopedToken = issued.json().consolaResponse.secreto;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('knows every operator route, each with a permission', () => {
    // The whole API: a route added without a permission stops the app at boot (access.ts).
    expect(routes().length).toBeGreaterThanOrEqual(20);
    expect(routes().map((r) => r.url)).toEqual(expect.arrayContaining(['/admin/parametros/:nombre', '/admin/socios/:rut', '/admin/tokens', '/admin/auditoria/csv', '/admin/cambios/:id/aprobar', '/admin/webpay/:ordenCompra/devolver']));
  });

  it('answers 401 to every route without a session or token, changing nothing but the trail of refusals', async () => {
    const before = await fingerprint(t.database.db);
    const refusedBefore = await refusals(t.database.db);
    for (const route of routes()) {
      const res = await t.app.operator.inject(requestOf(route));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
    expect(await fingerprint(t.database.db)).toBe(before);
    expect((await refusals(t.database.db)) - refusedBefore).toBe(routes().length);
  });

  it.each(ROLES)('refuses %s every action its role lacks with 403, changing nothing', async (role) => {
    const usuario = DEMO_OPERATORS.find((o) => o.roles.includes(role))!.usuario;
    const session = sessions.get(usuario)!;
    const allowed = new Set<Permission>(ROLE_PERMISSIONS[role]);
    const lacking = routes().filter((route) => !allowed.has(route.permiso));
    expect(lacking.length).toBeGreaterThan(0);
    const before = await fingerprint(t.database.db);
    const refusedBefore = await refusals(t.database.db);
    for (const route of lacking) {
      const res = await t.app.operator.inject({ ...requestOf(route), headers: asOperator(session) });
      expect(res.statusCode, `${role}: ${route.method} ${route.url}`).toBe(403);
    }
    expect(await fingerprint(t.database.db)).toBe(before);
    // Each refusal is in the trail, naming the operator and the permission they lacked.
    const lines = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, REFUSED)).orderBy(auditLog.id);
    expect(lines.length - refusedBefore).toBe(lacking.length);
    expect(lines.at(-1)?.detail).toMatchObject({ operador: session.nombre, motivo: `sin permiso ${lacking.at(-1)!.permiso}` });
  });

  it('refuses a session’s state-changing call without its CSRF token, or from another origin, with 403, changing nothing', async () => {
    const before = await fingerprint(t.database.db);
    for (const route of routes().filter((r) => r.method !== 'GET')) {
      const holder = DEMO_OPERATORS.find((o) => o.roles.some((role) => ROLE_PERMISSIONS[role].includes(route.permiso)))!;
      const session = sessions.get(holder.usuario)!;
      const without = await t.app.operator.inject({ ...requestOf(route), headers: { cookie: session.cookie } });
      expect(without.statusCode, `no CSRF: ${route.method} ${route.url}`).toBe(403);
      const wrong = await t.app.operator.inject({ ...requestOf(route), headers: { cookie: session.cookie, 'x-csrf-token': 'x'.repeat(43) } });
      expect(wrong.statusCode, `wrong CSRF: ${route.method} ${route.url}`).toBe(403);
      const foreign = await t.app.operator.inject({ ...requestOf(route), headers: { ...asOperator(session), origin: 'https://atacante.example' } });
      expect(foreign.statusCode, `other origin: ${route.method} ${route.url}`).toBe(403);
    }
    expect(await fingerprint(t.database.db)).toBe(before);
  });

  it('refuses a machine token every route beyond its scopes with 403, changing nothing', async () => {
    const before = await fingerprint(t.database.db);
    for (const route of routes().filter((r) => r.permiso !== 'importacion')) {
      const res = await t.app.operator.inject({ ...requestOf(route), headers: { authorization: `Bearer ${scopedToken}` } });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    expect(await fingerprint(t.database.db)).toBe(before);
  });

  it('refuses forged cookies, CSRF tokens and bearer tokens of any shape with 401 or 403, changing nothing', async () => {
    const before = await fingerprint(t.database.db);
    const someRoute = fc.constantFrom(...routes());
    const junk = fc.oneof(fc.string({ maxLength: 80 }), fc.base64String({ maxLength: 64 }), fc.constant(''));
    const printable = (s: string) => s.replace(/[^\x21-\x7e]/g, 'x');
    await fc.assert(
      fc.asyncProperty(someRoute, junk, junk, fc.boolean(), async (route, secret, csrf, asBearer) => {
        const headers: Record<string, string> = asBearer
          ? { authorization: `Bearer ${printable(secret)}` }
          : { cookie: `operador_sesion=${printable(secret)}`, 'x-csrf-token': printable(csrf) };
        const res = await t.app.operator.inject({ ...requestOf(route), headers });
        expect([401, 403], `${route.method} ${route.url}`).toContain(res.statusCode);
      }),
      { numRuns: 150 },
    );
    // A real session's cookie with another session's CSRF token is refused too.
    const agente = sessions.get('agente')!;
    const other = sessions.get('operaciones')!;
    const crossed = await t.app.operator.inject({ method: 'POST', url: '/admin/socios/13579246-2/desbloquear-clave', headers: { cookie: agente.cookie, 'x-csrf-token': other.csrf } });
    expect(crossed.statusCode).toBe(403);
    expect(await fingerprint(t.database.db)).toBe(before);
  });

  it('lets each role read what its role allows', async () => {
    const get = (usuario: string, url: string) => t.app.operator.inject({ method: 'GET', url, headers: { cookie: sessions.get(usuario)!.cookie } });
    expect((await get('agente', '/admin/socios/11111111-1')).statusCode).toBe(200);
    expect((await get('operaciones', '/admin/parametros')).statusCode).toBe(200);
    expect((await get('finanzas', '/admin/conciliacion/webpay?fecha=20260105')).statusCode).toBe(200);
    expect((await get('auditor', '/admin/auditoria')).statusCode).toBe(200);
    expect((await get('admin', '/admin/tokens')).statusCode).toBe(200);
    for (const demo of DEMO_OPERATORS) expect((await get(demo.usuario, '/admin/resumen')).statusCode, demo.usuario).toBe(200);
  });
});
