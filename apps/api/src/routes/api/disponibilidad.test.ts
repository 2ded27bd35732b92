import { AVAILABILITY_PATH, type FamilyAvailability } from '@pago/domain/business-time';
import { describe, expect, it } from 'vitest';
import { errorCode, listProducts, oldest, postSeleccionar } from '../../../test/support/member-calls';
import { appPerTest, businessNoon, TEST_ADMIN_TOKEN } from '../../../test/support/test-app';

const hours = (n: number) => new Date(businessNoon().getTime() + n * 3_600_000);

describe('the families’ availability (GET /api/disponibilidad)', () => {
  const t = appPerTest('pglite');

  const availability = async () => {
    const res = await t.app.inject({ method: 'GET', url: AVAILABILITY_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return Object.fromEntries((res.json().disponibilidad as FamilyAvailability[]).map((a) => [a.tipoFamiliaProducto, a]));
  };
  const setClock = (instante: string, token = TEST_ADMIN_TOKEN) =>
    t.app.inject({ method: 'POST', url: '/sandbox/reloj', headers: { authorization: `Bearer ${token}` }, payload: { instante } });

  it('answers every family open at noon, with its closing and opening hours', async () => {
    const now = await availability();
    expect(Object.keys(now)).toEqual(['PC', 'CP', 'HI', 'TC', 'PM', 'AH']);
    expect(Object.values(now).every((a) => a.disponible && a.apertura === '02:00')).toBe(true);
    expect(now['HI']?.cierre).toBe('20:00');
    expect(now['PC']?.cierre).toBe('22:30');
  });

  it('follows the business clock, as the selection does: the mortgage closes first, then every family', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    expect((await setClock(hours(9).toISOString())).statusCode).toBe(200);
    const evening = await availability();
    expect(Object.entries(evening).filter(([, a]) => !a.disponible).map(([family]) => family)).toEqual(['HI']);
    // The server refuses what it says is closed, and takes what it says is open.
    const mortgage = productos.find((p) => p.tipoFamiliaProducto === 'HI')!;
    expect(errorCode(await postSeleccionar(t.app, token, '11111111-1', [oldest(mortgage, 1)]), 'seleccionarProductoResponse')).toBe('4953');
    const mype = productos.find((p) => p.tipoFamiliaProducto === 'PM')!;
    expect(errorCode(await postSeleccionar(t.app, token, '11111111-1', [oldest(mype, 1)]), 'seleccionarProductoResponse')).toBeUndefined();

    await setClock(hours(11).toISOString());
    expect(Object.values(await availability()).some((a) => a.disponible)).toBe(false);
    // At 02:00 everything opens again.
    await setClock(hours(14).toISOString());
    expect(Object.values(await availability()).every((a) => a.disponible)).toBe(true);
  });

  it('moves the sandbox’s clock only with the operator’s token and a whole instant', async () => {
    expect((await setClock(hours(9).toISOString(), 'not-the-token-at-all')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/sandbox/reloj', payload: { instante: hours(9).toISOString() } })).statusCode).toBe(401);
    expect((await setClock('mañana')).statusCode).toBe(400);
    expect(Object.values(await availability()).every((a) => a.disponible)).toBe(true);
  });
});
