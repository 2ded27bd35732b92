import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readLoad } from '../../cli/import-file';
import { accounts, instalments, members, products } from '../../db/schema';
import { listProducts } from '../../../test/support/member-calls';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN } from '../../../test/support/test-app';

const CSV = `rut,nombre,correo,numeroCuenta,saldoCuenta,familia,numeroProducto,numeroCuota,monto,montoPendiente,pagoMinimo,fechaVencimiento,medioPago
5.126.663-3,Ana Soto,ana@example.cl,000099990001,250000,PC,410055550001,1,40000,,,20301201,
5.126.663-3,Ana Soto,ana@example.cl,000099990001,250000,PC,410055550001,2,40000,,,20310101,
5.126.663-3,Ana Soto,ana@example.cl,000099990001,250000,AH,800055550001,,,,,,
12.345.678-0,RUT malo,,,,PC,410055550002,1,1000,,,20301201,
6.543.210-2,Otro,,,,PM,410012345678,1,1000,,,20301201,
`;

describe.each(DATABASE_KINDS)('nightly import on %s', (kind) => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest(kind);

  const post = (socios: unknown[]) =>
    t.app.inject({ method: 'POST', url: '/admin/importacion', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { corte: new Date().toISOString(), socios } });

  it('imports valid rows, reports the rejected ones row by row, and is idempotent', async () => {
    const rows = readLoad('carga.csv', CSV);
    expect(rows).toHaveLength(3);
    const first = (await post(rows)).json().operacionesResponse;
    expect(first.recibidos).toBe(3);
    expect(first.aceptados).toBe(1);
    expect(first.rechazados.map((r: { fila: number }) => r.fila)).toEqual([2, 3]);
    expect(first.rechazados[0].motivos.join()).toContain('RUT inválido');
    expect(first.rechazados[1].motivos.join()).toContain('pertenece a otro socio');

    const counts = async () => ({
      members: await t.database.db.$count(members),
      products: await t.database.db.$count(products),
      instalments: await t.database.db.$count(instalments),
      accounts: await t.database.db.$count(accounts),
    });
    const after = await counts();
    await post(rows);
    expect(await counts()).toEqual(after);

    const { productos } = await listProducts(t.app, '5126663-3');
    expect(productos.map((p) => p.tipoFamiliaProducto).sort()).toEqual(['AH', 'PC']);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.numeroCuenta, '000099990001'));
    expect(account?.saldo).toBe(250_000);
  });

  it('reflects the core system: a paid instalment (montoPendiente 0) leaves the list', async () => {
    const load = (firstPending: number) => [
      {
        rut: '5126663-3',
        nombre: 'Ana Soto',
        productos: [
          {
            familia: 'PC',
            numeroProducto: '410055550001',
            cuotas: [
              { numeroCuota: 1, monto: 40000, montoPendiente: firstPending, fechaVencimiento: '20301201' },
              { numeroCuota: 2, monto: 40000, fechaVencimiento: '20310101' },
            ],
          },
        ],
      },
    ];
    await post(load(40000));
    await post(load(0));
    const { productos } = await listProducts(t.app, '5126663-3');
    const pc = productos.find((p) => p.tipoFamiliaProducto === 'PC')!;
    expect((pc.listaDetalleProductos as { numeroCuota: number }[]).map((d) => d.numeroCuota)).toEqual([2]);
  });

  // Found by the fuzz: such rows reached the database, and the answer carried the failed query with its parameters.
  it('refuses amounts a number cannot hold exactly and text the database cannot hold, row by row', async () => {
    const good = { rut: '6.234.567-5', nombre: 'Rosa Vega', cuenta: { numeroCuenta: '000099990007', saldo: 2_147_483_648 } };
    const cuota = (numeroCuota: number) => ({ numeroCuota, monto: 2 ** 52, fechaVencimiento: '20301201' });
    const before = await t.database.db.$count(members);
    const res = await post([
      { rut: '6.234.567-5', nombre: 'Rosa Vega', cuenta: { numeroCuenta: '000099990008', saldo: Number.MAX_SAFE_INTEGER + 1 } },
      { rut: '6.234.567-5', nombre: 'Rosa\u0000Vega' },
      { rut: '6.234.567-5', nombre: 'Rosa \ud800Vega' },
      { rut: '6.234.567-5', nombre: 'Rosa Vega', productos: [{ familia: 'PC', numeroProducto: '410055550009', cuotas: [cuota(1), cuota(2)] }] },
      good,
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/Failed query|insert into|params|6234567/);
    const report = res.json().operacionesResponse;
    expect(report.aceptados).toBe(1);
    expect(report.rechazados.map((r: { motivos: string[] }) => r.motivos)).toEqual([
      ['cuenta.saldo: monto fuera de rango'],
      ['nombre: caracteres no válidos'],
      ['nombre: caracteres no válidos'],
      ['productos.0: deuda total fuera de rango'],
    ]);
    expect(await t.database.db.$count(members)).toBe(before + 1);
    // Past 2^31: the money columns are bigint.
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.numeroCuenta, '000099990007'));
    expect(account?.saldo).toBe(2_147_483_648);
  });

  it('reports a row the database refuses with a plain reason, never the query or its values, and saves the others', async () => {
    // A trigger stands for any refusal the schema did not foresee.
    await t.database.db.execute(sql`create function refuse_account() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`);
    await t.database.db.execute(sql`create trigger refuse_account before insert on accounts for each row when (new.numero_cuenta = '000099990009') execute function refuse_account()`);
    try {
      const res = await post([
        { rut: '8.765.432-K', nombre: 'Pedro Lagos', correo: 'pedro@example.cl', cuenta: { numeroCuenta: '000099990009', saldo: 1 } },
        { rut: '8.765.432-K', nombre: 'Pedro Lagos' },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/Failed query|insert into|params|refused|8765432|pedro@/);
      const report = res.json().operacionesResponse;
      expect(report.aceptados).toBe(1);
      expect(report.rechazados).toEqual([{ fila: 1, rut: '****432-K', motivos: ['la fila no se pudo guardar'] }]);
      // The refused row was rolled back whole: the member the second row created has no e-mail from the first.
      const [member] = await t.database.db.select().from(members).where(eq(members.rut, '8765432-K'));
      expect(member?.email).toBeNull();
    } finally {
      await t.database.db.execute(sql`drop trigger refuse_account on accounts`);
      await t.database.db.execute(sql`drop function refuse_account()`);
    }
  });

  it('refuses a malformed load with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/importacion', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { socios: 'no' } });
    expect(res.statusCode).toBe(400);
  });
});
