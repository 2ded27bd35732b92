import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, operatorLogins, operatorSessions } from '../db/schema';
import { appPerTest, DATABASE_KINDS, testConfig } from '../../test/support/test-app';
import { asOperator, CookieJar, operatorSession, signInAs } from '../../test/support/operator-session';
import { DEMO_OPERATORS } from './demo-operators';
import { hasSecondFactor, rolesFrom } from './relying-party';

describe('operator roles and factors read from the ID token', () => {
  it('counts a second factor from amr beyond a password, or a configured acr', () => {
    expect(hasSecondFactor({ amr: ['pwd'] }, [])).toBe(false);
    expect(hasSecondFactor({}, [])).toBe(false);
    expect(hasSecondFactor({ amr: ['pwd', 'otp'] }, [])).toBe(true);
    expect(hasSecondFactor({ amr: ['mfa'] }, [])).toBe(true);
    expect(hasSecondFactor({ amr: 'otp' }, [])).toBe(false);
    expect(hasSecondFactor({ acr: 'urn:coop:mfa' }, ['urn:coop:mfa'])).toBe(true);
    expect(hasSecondFactor({ acr: 'urn:coop:pwd' }, ['urn:coop:mfa'])).toBe(false);
  });

  it('keeps only the console’s roles from an array or a string claim', () => {
    expect(rolesFrom(['agente', 'root', 'auditor', 'agente'])).toEqual(['agente', 'auditor']);
    expect(rolesFrom('finanzas admin,otro')).toEqual(['finanzas', 'admin']);
    expect(rolesFrom(undefined)).toEqual([]);
    expect(rolesFrom({ agente: true })).toEqual([]);
  });
});

describe.each(DATABASE_KINDS)('operator sign-in through the sandbox provider on %s', (kind) => {
  const t = appPerTest(kind);
  const operator = () => t.app.operator;

  it.each(DEMO_OPERATORS.map((o) => [o.usuario, o] as const))('signs %s in with a session cookie that is httpOnly, Secure and SameSite=Strict', async (_usuario, demo) => {
    const { final, session } = await signInAs(operator(), demo.usuario);
    expect(final.statusCode).toBe(200);
    expect(session).not.toBeNull();
    const setCookie = ([] as string[]).concat(final.headers['set-cookie'] ?? []).find((c) => c.startsWith('operador_sesion='))!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    const who = await operator().inject({ method: 'GET', url: '/operador/api/sesion', headers: { cookie: session!.cookie } });
    expect(who.json().operadorResponse.sesion).toMatchObject({ nombre: demo.nombre, roles: demo.roles });
    // Only the hash of the cookie's token is stored.
    const rows = await t.database.db.select().from(operatorSessions);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(session!.cookie.split('=')[1]);
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'operador.ingreso'));
    expect(line?.detail).toMatchObject({ operador: demo.nombre, roles: demo.roles });
  });

  it('opens no session for a wrong password or an unknown user', async () => {
    expect((await signInAs(operator(), 'agente', { clave: 'not-the-password' })).session).toBeNull();
    expect((await signInAs(operator(), 'nadie', { clave: 'x' })).session).toBeNull();
    expect(await t.database.db.select().from(operatorSessions)).toHaveLength(0);
  });

  it('refuses a callback whose state is not this browser’s, and a replayed one', async () => {
    // Someone else's sign-in, carried to this browser (login CSRF): its state is not in this browser's cookie.
    const victim = new CookieJar();
    const start = await operator().inject({ method: 'GET', url: '/operador/entrar' });
    victim.take(start);
    const state = new URL(String(start.headers.location)).searchParams.get('state')!;
    const forged = await operator().inject({ method: 'GET', url: `/operador/callback?code=abc&state=${state}`, headers: { cookie: 'operador_ingreso=another-state' } });
    expect(forged.statusCode).toBe(400);
    expect(String(forged.headers['set-cookie'] ?? '')).not.toContain('operador_sesion=');

    // A full sign-in, then its very callback again (code and state replayed with the state's cookie): refused.
    const { session, visited } = await signInAs(operator(), 'agente');
    expect(session).not.toBeNull();
    const callback = visited.find((url) => url.startsWith('/operador/callback?'))!;
    const replayedState = new URL(callback, 'http://x').searchParams.get('state')!;
    const again = await operator().inject({ method: 'GET', url: callback, headers: { cookie: `operador_ingreso=${replayedState}` } });
    expect(again.statusCode).toBe(400);
    expect(await t.database.db.select().from(operatorSessions)).toHaveLength(1);
    // Only the victim's sign-in, never finished, is still under way.
    expect(await t.database.db.select().from(operatorLogins)).toHaveLength(1);
  });

  it('ends the session on the server at logout, which needs the CSRF token', async () => {
    const session = await operatorSession(operator(), 'operaciones');
    const noCsrf = await operator().inject({ method: 'POST', url: '/operador/salir', headers: { cookie: session.cookie } });
    expect(noCsrf.statusCode).toBe(403);
    expect((await operator().inject({ method: 'GET', url: '/admin/parametros', headers: { cookie: session.cookie } })).statusCode).toBe(200);
    const out = await operator().inject({ method: 'POST', url: '/operador/salir', headers: asOperator(session) });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/operador_sesion=; .*Max-Age=0/);
    // The same cookie, kept by an attacker, opens nothing any more.
    expect((await operator().inject({ method: 'GET', url: '/admin/parametros', headers: { cookie: session.cookie } })).statusCode).toBe(401);
    expect((await operator().inject({ method: 'GET', url: '/operador/api/sesion', headers: { cookie: session.cookie } })).json()).toEqual({ operadorResponse: { sesion: null } });
    const [row] = await t.database.db.select().from(operatorSessions);
    expect(row?.endedAt).not.toBeNull();
  });

  it('ends a session idle longer than the idle time-out, and any past its absolute end', async () => {
    const idle = await operatorSession(operator(), 'auditor');
    const busy = await operatorSession(operator(), 'operaciones');
    const call = (cookie: string) => operator().inject({ method: 'GET', url: '/admin/parametros', headers: { cookie } });
    expect((await call(idle.cookie)).statusCode).toBe(200);
    const idleMinutes = t.app.config.operatorConsole.idleMinutes;
    await t.database.db.update(operatorSessions).set({ lastSeenAt: sql`now() - make_interval(mins => ${idleMinutes + 1})` }).where(eq(operatorSessions.name, idle.nombre));
    expect((await call(idle.cookie)).statusCode).toBe(401);
    // Busy all along, but past the absolute end.
    expect((await call(busy.cookie)).statusCode).toBe(200);
    await t.database.db.update(operatorSessions).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(operatorSessions.name, busy.nombre));
    expect((await call(busy.cookie)).statusCode).toBe(401);
  });
});

describe.each(DATABASE_KINDS)('operator sign-in when multi-factor is required on %s', (kind) => {
  const t = appPerTest(kind, { config: { operatorConsole: { ...testConfig().operatorConsole, requireMfa: true } } });

  it('refuses a sign-in whose ID token shows no second factor, and accepts one that does', async () => {
    const without = await signInAs(t.app.operator, 'admin', { codigo: false });
    expect(without.session).toBeNull();
    expect(without.final.statusCode).toBe(403);
    expect(without.final.body).toContain('segundo factor');
    const [refused] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'operador.ingreso.rechazado'));
    expect(refused?.detail).toMatchObject({ motivo: 'sin segundo factor' });
    expect((await signInAs(t.app.operator, 'admin')).session).not.toBeNull();
  });
});
