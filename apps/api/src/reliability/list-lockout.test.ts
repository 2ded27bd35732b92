import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { startTestApp, type TestApp } from '../test/test-app';
import { codeOf, post, solveCaptcha } from './flows';
import { injectTarget, type Target } from './http';
import { recordFigures } from './settings';

// Someone who knows only a RUT must not be able to lock its member out of their own product list.

const LIST = 'listarDetalleProductosResponse';
const RUT = '11111111-1';

describe('the product list cannot be locked for a member by another client', () => {
  let t: TestApp;
  let attacks = 0;
  beforeAll(async () => {
    t = await startTestApp('pglite', { config: { altchaCounter: { min: 10, max: 50 } }, rateLimits: { listarPerIp: 1000, listarPerRut: 3, listarRutCeiling: 8 } });
  });
  afterAll(async () => {
    recordFigures({ section: 'attacks', database: 'pglite', faultsInjected: attacks });
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

  it('keeps a ceiling per RUT that only many clients together reach, and then refuses every client', async () => {
    attacks++;
    const rut = '9876543-3';
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await list(from(`10.3.0.${i}`), rut)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
    expect(statuses.slice(8)).toEqual([429, 429]);
    // Another RUT is untouched.
    const before = await t.database.db.$count(sessions);
    expect((await list(from('10.3.1.1'), '15432876-9')).status).toBe(200);
    expect(await t.database.db.$count(sessions)).toBe(before + 1);
  });
});
