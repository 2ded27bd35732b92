import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, sessions } from '../../src/db/schema';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { codeOf, post, solveCaptcha } from './flows';
import { injectTarget, type Target } from './http';
import { recordFigures } from './settings';

// Someone who knows only a RUT must not be able to lock its member out of their own product list.

const LIST = 'listarDetalleProductosResponse';
const RUT = '11111111-1';

describe.each(DATABASE_KINDS)('the product list cannot be locked for a member by other clients (%s)', (kind) => {
  let t: TestApp;
  let attacks = 0;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { altchaCounter: { min: 10, max: 50 } }, rateLimits: { listarPerIp: 1000, listarPerRut: 3, listarRutCeiling: 8, listarPastCeiling: 2 } });
  });
  afterAll(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: attacks });
    await t?.close();
  });
  const from = (ip: string): Target => ({ name: ip, request: (r) => injectTarget(t.app, ip, ip).request(r) });
  const list = async (client: Target, rut = RUT) =>
    post(client, '/prod/producto/listar', { listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } }, { authorization: await solveCaptcha(from('10.9.9.9')) });

  it('refuses one client that lists a RUT again and again, and still lists it for the member elsewhere', async () => {
    attacks++;
    const attacker = from('10.1.0.1');
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await list(attacker)).status);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    expect(codeOf(await list(attacker), LIST)).toBe('514');

    const member = await list(from('10.2.0.1'));
    expect(member.status).toBe(200);
    expect(codeOf(member, LIST)).toBeUndefined();
  });

  it('past the ceiling per RUT that only many clients together reach, refuses the clients that made it and still lists for the member', async () => {
    attacks++;
    const rut = '9876543-3';
    // Three addresses list the RUT as often as each may: nine listings, one past the ceiling of eight.
    const statuses = [];
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) statuses.push((await list(from(`10.3.0.${i}`), rut)).status);
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
    expect(statuses[8]).toBe(429);
    // The member, from their own device, still gets their list, and a refreshed one; the allowance past the ceiling then holds.
    const member = from('10.3.9.9');
    expect([(await list(member, rut)).status, (await list(member, rut)).status, (await list(member, rut)).status]).toEqual([200, 200, 429]);
    // The attackers' addresses stay refused; the event is in the audit trail once, with the RUT masked.
    expect((await list(from('10.3.0.0'), rut)).status).toBe(429);
    const alerts = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'listar.tope.rut'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.rutMasked).not.toContain('9876543');
    // Another RUT is untouched.
    const before = await t.database.db.$count(sessions);
    expect((await list(from('10.3.1.1'), '15432876-9')).status).toBe(200);
    expect(await t.database.db.$count(sessions)).toBe(before + 1);
  });
});
