import type { ProductoSeleccionado } from '@pago/domain/schemas/call-seleccionar';
import { detallesOf, type Producto } from '@pago/domain/products';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { transactionItems, transactions } from '../../../db/schema';
import { listProducts, postSeleccionar, productNumbered } from '../../../../test/support/member-calls';
import {
  businessNoon,
  DATABASE_KINDS,
  seededSnapshot,
  startTestApp,
  type SeededSnapshot,
  type TestApp,
} from '../../../../test/support/test-app';

type Sel = ProductoSeleccionado;
const responseOf = (res: { json(): unknown }) =>
  (res.json() as { seleccionarProductoResponse: { codigo?: string; idTransaccion?: string; montoTotal?: number; error?: { errores: { detalleError: { codigo: string } } } } })
    .seleccionarProductoResponse;
const codeOf = (res: { json(): unknown }) => responseOf(res).error?.errores.detalleError.codigo;

/** A selection of the first `count` instalments of a listed product, at their pending amounts. */
function pick(p: Producto, count: number, override: Partial<{ valor: number; numeros: number[] }> = {}): Sel {
  const detalles = detallesOf(p);
  const chosen = override.numeros ? override.numeros.map((n) => detalles.find((d) => d.numeroCuota === n)!) : detalles.slice(0, count);
  return {
    numeroProducto: p.numeroProducto,
    tipoFamiliaProducto: p.tipoFamiliaProducto,
    nombreFamiliaProducto: p.nombreFamiliaProducto,
    detalleProducto: chosen.map((d, i) => ({
      numeroCuota: String(d.numeroCuota),
      valorAPagar: i === chosen.length - 1 && override.valor !== undefined ? override.valor : d.montoPendiente,
      fechaVencimiento: d.fechaVencimiento,
    })),
  };
}

const deposit = (p: Producto, valor: number): Sel => ({
  numeroProducto: p.numeroProducto,
  tipoFamiliaProducto: 'AH',
  nombreFamiliaProducto: p.nombreFamiliaProducto,
  detalleProducto: [{ numeroCuota: '0', valorAPagar: valor, fechaVencimiento: '0' }],
});

describe.each(DATABASE_KINDS)('POST /prod/producto/seleccionar on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let productos: Producto[];
  const RUT = '11111111-1';
  const byNumber = (n: string) => productNumbered(productos, n);
  const storedCount = () => t.database.db.$count(transactions);

  let seeded: SeededSnapshot;
  beforeAll(async () => {
    seeded = await seededSnapshot(kind);
  });
  afterAll(async () => {
    await seeded?.close();
  });
  // Each test selects on its own copy of the seeded members, from a list of its own.
  beforeEach(async () => {
    t = await seeded.start();
    ({ token, productos } = await listProducts(t.app, RUT));
  });
  afterEach(async () => {
    await t?.close();
  });

  it('stores a pending transaction with the total computed from the database', async () => {
    const res = await postSeleccionar(t.app, token, RUT, [pick(byNumber('410012345678'), 2)]);
    const body = responseOf(res);
    expect(body).toMatchObject({ codigo: '200', montoTotal: 170_860 });
    expect(body.idTransaccion).toMatch(/^[0-9a-f]{32}$/);
    const [trx] = await t.database.db.select().from(transactions).where(eq(transactions.idTransaccion, body.idTransaccion!));
    expect(trx).toMatchObject({ status: 'pending', family: 'PC', total: 170_860 });
    const items = await t.database.db.select().from(transactionItems).where(eq(transactionItems.idTransaccion, body.idTransaccion!));
    expect(items.map((i) => [i.numeroCuota, i.monto])).toEqual([
      [21, 85_430],
      [22, 85_430],
    ]);
  });

  it('accepts the minimum payment and a free partial amount on the newest selected instalment', async () => {
    const pc = byNumber('410012345678');
    expect(codeOf(await postSeleccionar(t.app, token, RUT, [pick(pc, 1, { valor: 20_000 })]))).toBeUndefined();
    expect(codeOf(await postSeleccionar(t.app, token, RUT, [pick(pc, 2, { valor: 10_000 })]))).toBeUndefined();
  });

  it('accepts each family’s own shape: CP count, card options, savings deposit', async () => {
    const cp = productos.find((p) => p.tipoFamiliaProducto === 'CP')!;
    expect(responseOf(await postSeleccionar(t.app, token, RUT, [pick(cp, 3)]))).toMatchObject({ montoTotal: 15_000 });
    const tc = productos.find((p) => p.tipoFamiliaProducto === 'TC')!;
    for (const valor of [35_000, 350_000, 120_000]) {
      expect(responseOf(await postSeleccionar(t.app, token, RUT, [pick(tc, 1, { valor })]))).toMatchObject({ montoTotal: valor });
    }
    const ah = productos.filter((p) => p.tipoFamiliaProducto === 'AH');
    expect(responseOf(await postSeleccionar(t.app, token, RUT, [deposit(ah[0]!, 1_000), deposit(ah[1]!, 4_999_999)]))).toMatchObject({ montoTotal: 5_000_999 });
  });

  it.each<[string, () => Sel[], string]>([
    ['another member’s product', () => [{ ...pick(byNumber('410012345678'), 1), numeroProducto: '410098765431' }], '47678'],
    ['a product that does not exist', () => [{ ...pick(byNumber('410012345678'), 1), numeroProducto: '999999999999' }], '47678'],
    ['a gap in the order', () => [pick(byNumber('410012345678'), 0, { numeros: [21, 23] })], '461'],
    ['a newer instalment first', () => [pick(byNumber('410012345678'), 0, { numeros: [22] })], '461'],
    ['an amount over the pending one', () => [pick(byNumber('410012345678'), 1, { valor: 85_431 })], '463'],
    ['a partial amount below the minimum', () => [pick(byNumber('410012345678'), 1, { valor: 9_999 })], '464'],
    ['a partial amount on an older instalment', () => {
      const s = pick(byNumber('410012345678'), 2);
      s.detalleProducto[0]!.valorAPagar = 20_000;
      return [s];
    }, '464'],
    ['a partial amount on a credit without the offer', () => [pick(byNumber('520011223344'), 1, { valor: 100_000 })], '464'],
    ['a changed due date', () => {
      const s = pick(byNumber('410012345678'), 1);
      s.detalleProducto[0]!.fechaVencimiento = '20200101';
      return [s];
    }, '463'],
    ['a savings deposit of 999', () => [deposit(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 999)], '505'],
    ['a savings deposit of 5.000.000', () => [deposit(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 5_000_000)], '505'],
    ['a CP count over the accumulated one', () => {
      const cp = pick(productos.find((p) => p.tipoFamiliaProducto === 'CP')!, 6);
      cp.detalleProducto.push({ numeroCuota: '7', valorAPagar: 5_000, fechaVencimiento: cp.detalleProducto[5]!.fechaVencimiento });
      return [cp];
    }, '474'],
    ['a card payment under the minimum', () => [pick(productos.find((p) => p.tipoFamiliaProducto === 'TC')!, 1, { valor: 34_999 })], '505'],
    ['a card payment over the billed amount', () => [pick(productos.find((p) => p.tipoFamiliaProducto === 'TC')!, 1, { valor: 350_001 })], '463'],
    ['a family name that lies', () => [{ ...pick(byNumber('410012345678'), 1), tipoFamiliaProducto: 'PM' }], '47678'],
  ])('refuses %s with its catalogue code and stores nothing', async (_label, build, codigo) => {
    const before = await storedCount();
    const res = await postSeleccionar(t.app, token, RUT, build());
    expect(res.statusCode).toBe(200);
    expect(codeOf(res)).toBe(codigo);
    expect(await storedCount()).toBe(before);
  });

  it.each([
    ['two families at once', () => [pick(byNumber('410012345678'), 1), pick(byNumber('520011223344'), 1)]],
    ['the same product twice', () => [pick(byNumber('410012345678'), 1), pick(byNumber('410012345678'), 1)]],
    ['a card statement in two lines', () => {
      const tc = pick(productos.find((p) => p.tipoFamiliaProducto === 'TC')!, 1, { valor: 35_000 });
      tc.detalleProducto.push({ ...tc.detalleProducto[0]! });
      return [tc];
    }],
    ['a deposit with an instalment number', () => {
      const ah = deposit(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 10_000);
      ah.detalleProducto[0]!.numeroCuota = '1';
      return [ah];
    }],
  ])('refuses %s as a request no screen makes (400), not as an empty selection, and stores nothing', async (_label, build) => {
    const before = await storedCount();
    const res = await postSeleccionar(t.app, token, RUT, build());
    expect(res.statusCode).toBe(400);
    expect(codeOf(res)).toBe('400');
    expect(res.body).not.toContain('Debes seleccionar al menos un producto');
    expect(await storedCount()).toBe(before);
  });

  it('refuses a family whose switch is off, and a session that is not this RUT’s', async () => {
    const before = await storedCount();
    await t.app.services.parameters.update('PC', '0', 'test');
    expect(codeOf(await postSeleccionar(t.app, token, RUT, [pick(byNumber('410012345678'), 1)]))).toBe('49010');
    await t.app.services.parameters.update('PC', '1', 'test');

    const other = await listProducts(t.app, '9876543-3');
    // Another member's valid token cannot select this member's products, nor with this member's RUT.
    expect(codeOf(await postSeleccionar(t.app, other.token, RUT, [pick(byNumber('410012345678'), 1)]))).toBe('476');
    expect(codeOf(await postSeleccionar(t.app, 'x'.repeat(43), RUT, [pick(byNumber('410012345678'), 1)]))).toBe('476');
    expect(await storedCount()).toBe(before);
  });

  it('shows and takes only the overdue mortgage instalments past the grace days', async () => {
    const member = await listProducts(t.app, '9876543-3');
    const hi = member.productos.find((p) => p.tipoFamiliaProducto === 'HI')!;
    const current = pick(hi, 0, { numeros: [61, 62, 63] });
    expect(codeOf(await postSeleccionar(t.app, member.token, '9876543-3', [current]))).toBe('461');
    expect(responseOf(await postSeleccionar(t.app, member.token, '9876543-3', [pick(hi, 2)]))).toMatchObject({ montoTotal: 796_400 });
  });

  it('refuses a malformed selection with 400', async () => {
    for (const producto of [[], [{ numeroProducto: '1' }], [{ ...pick(byNumber('410012345678'), 1), detalleProducto: [{ numeroCuota: '21', valorAPagar: -5, fechaVencimiento: '0' }] }], [{ ...pick(byNumber('410012345678'), 1), detalleProducto: [{ numeroCuota: '21', valorAPagar: 1.5, fechaVencimiento: '0' }] }]]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/prod/producto/seleccionar',
        payload: { seleccionarProductoRequest: { userId: RUT, canalLlamada: 'PGEX', token, rut: RUT, producto } },
      });
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('400');
    }
  });
});

describe('opening hours and session expiry', () => {
  it('refuses non-mortgage selections from 22:30 and mortgages from 20:00 (Santiago) with 4953', async () => {
    const noon = businessNoon();
    // 16:00Z is 13:00 in Santiago in summer (UTC-3) or 12:00 in winter (UTC-4): add 10 h to land at 22:00–23:00.
    const late = new Date(noon.getTime() + 10 * 3_600_000 + 40 * 60_000);
    const t = await startTestApp('pglite', { now: late });
    try {
      const { token, productos } = await listProducts(t.app, '11111111-1');
      const pc = productNumbered(productos, '410012345678');
      const hi = productos.find((p) => p.tipoFamiliaProducto === 'HI')!;
      expect(codeOf(await postSeleccionar(t.app, token, '11111111-1', [pick(pc, 1)]))).toBe('4953');
      expect(codeOf(await postSeleccionar(t.app, token, '11111111-1', [pick(hi, 1)]))).toBe('4953');
      expect(await t.database.db.$count(transactions)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('expires the session after sessionTimeOut minutes of inactivity', async () => {
    const t = await startTestApp('pglite');
    try {
      const { token, productos } = await listProducts(t.app, '11111111-1');
      await t.database.db.execute(sql`update sessions set last_seen_at = now() - interval '6 minutes'`);
      const pc = productNumbered(productos, '410012345678');
      expect(codeOf(await postSeleccionar(t.app, token, '11111111-1', [pick(pc, 1)]))).toBe('476');
    } finally {
      await t.close();
    }
  });
});
