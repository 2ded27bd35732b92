import { demoCoordinateCard } from '@pago/domain/demo-members';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar } from '../../../test/support/member-calls';
import { operatorSession } from '../../../test/support/operator-session';
import { webpayAttempts } from '../../db/schema';
import { appPerTest, DATABASE_KINDS } from '../../../test/support/test-app';

/** `payer` pays from their own account `count` participation-share instalments of `holder`'s; answers the transaction. */
async function payShares(app: FastifyInstance, holder: string, payer: string, count: number): Promise<string> {
  const { token, productos } = await listProducts(app, holder);
  const sel = (await postSeleccionar(app, token, holder, [oldest(productos.find((p) => p.tipoFamiliaProducto === 'CP')!, count)])).json().seleccionarProductoResponse;
  const numeroCuenta = (await postAutentica(app, token, payer, '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta;
  const cells = (await postAutorizar(app, token, holder, payer, 1)).json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[];
  const card = demoCoordinateCard(payer);
  const paid = await postPagar(app, { token, rutTitular: holder, rutPago: payer, numeroCuenta, factor: 1, valores: cells.map((c) => card[c.valor]!) });
  expect(paid.statusCode, paid.body).toBe(200);
  return sel.idTransaccion as string;
}

describe.each(DATABASE_KINDS)('payments found from either side on %s', (kind) => {
  const t = appPerTest(kind);
  const op = () => t.app.operator;

  it('lists on the payer’s page what they paid for another member, with the debited account; the transaction names its payer', async () => {
    const id = await payShares(t.app, '11111111-1', '19191919-K', 1);
    const agente = await operatorSession(op(), 'agente');
    const get = (url: string) => op().inject({ method: 'GET', url, headers: { cookie: agente.cookie } });

    const payer = (await get('/admin/socios/19.191.919-K')).json().consolaResponse;
    expect(payer.transacciones).toEqual([]);
    expect(payer.pagosATerceros).toEqual([
      expect.objectContaining({ idTransaccion: id, socio: expect.stringMatching(/\*+111-1$/), estado: 'paid', medioPago: 'CUENTA VISTA', cuentaDebitada: expect.stringMatching(/\d{4}$/) }),
    ]);
    expect(payer.pagosATerceros[0].cuentaDebitada).toContain('*');
    // The holder's page does not count it as paid for others.
    expect((await get('/admin/socios/11.111.111-1')).json().consolaResponse.pagosATerceros).toEqual([]);

    const trx = (await get(`/admin/transacciones/${id}`)).json().operacionesResponse;
    expect(trx.pagador).toMatchObject({ rut: expect.stringMatching(/\*+919-K$/), nombre: expect.any(String), esElSocio: false });
    expect(trx.pagador.cuentaDebitada).toBe(payer.pagosATerceros[0].cuentaDebitada);
    // The full RUT of the payer is not sent to the console.
    expect(JSON.stringify(trx)).not.toContain('19191919');
  });

  it('searches payments by reference, either RUT, amount, day, state and method, a page at a time', async () => {
    const forOther = await payShares(t.app, '11111111-1', '19191919-K', 1);
    const own = await payShares(t.app, '11111111-1', '11111111-1', 2);
    const agente = await operatorSession(op(), 'agente');
    const search = async (query: string) => {
      const res = await op().inject({ method: 'GET', url: `/admin/pagos?${query}`, headers: { cookie: agente.cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().consolaResponse as { total: number; pagina: number; porPagina: number; pagos: { idTransaccion: string; codigoVerificacion: string | null; pagador: string | null; total: number }[] };
    };
    const ids = async (query: string) => (await search(query)).pagos.map((p) => p.idTransaccion);

    expect(await ids('rut=19.191.919-K')).toEqual([forOther]);
    expect(await ids('rut=11111111-1')).toEqual([own, forOther]);
    expect(await ids(`referencia=${forOther}`)).toEqual([forOther]);
    expect(await ids(`referencia=${forOther.toUpperCase()}`)).toEqual([forOther]);
    const listed = (await search(`referencia=${own}`)).pagos[0]!;
    expect(listed.codigoVerificacion).toEqual(expect.any(String));
    expect(await ids(`referencia=${listed.codigoVerificacion!.toLowerCase()}`)).toEqual([own]);
    expect(await ids(`monto=${listed.total}`)).toEqual([own]);
    expect(await ids('estado=paid&medioPago=CUENTA%20VISTA&rut=11.111.111-1')).toEqual([own, forOther]);
    expect(await ids('medioPago=WEBPAY')).toEqual([]);
    expect(await ids('estado=pending')).toEqual([]);
    const created = (await search(`referencia=${own}`)).pagos[0] as unknown as { creada: string };
    const day = new Date(created.creada).toLocaleDateString('sv-SE', { timeZone: 'America/Santiago' });
    expect(await ids(`desde=${day}&hasta=${day}`)).toEqual([own, forOther]);
    expect(await ids('hasta=2000-01-01')).toEqual([]);
    expect(await ids('referencia=no-existe')).toEqual([]);

    // A page at a time: the second page of a search that has two matches holds nothing.
    const first = await search('rut=11111111-1');
    expect(first).toMatchObject({ total: 2, pagina: 1, porPagina: 25 });
    expect((await search('rut=11111111-1&pagina=2')).pagos).toEqual([]);

    // What the user can send wrong is a 400, never a 500; and the agent's session is needed.
    for (const bad of ['rut=1-2', 'estado=pagada', 'monto=-5', 'desde=hoy', 'pagina=0', 'otro=1', `referencia=${'x'.repeat(65)}`]) {
      const res = await op().inject({ method: 'GET', url: `/admin/pagos?${bad}`, headers: { cookie: agente.cookie } });
      expect(res.statusCode, bad).toBe(400);
    }
    expect((await op().inject({ method: 'GET', url: '/admin/pagos' })).statusCode).toBe(401);
  });

  it('finds a card payment by the mall’s buy order or a store’s, and refuses the search to a role without socios.ver', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const id = (await postSeleccionar(t.app, token, '11111111-1', [oldest(productos.find((p) => p.tipoFamiliaProducto === 'CP')!, 1)])).json().seleccionarProductoResponse.idTransaccion as string;
    // The attempt as card-start writes it (the Webpay form itself is not needed to find it).
    await t.database.db.insert(webpayAttempts).values({
      token: 'tok-search-1',
      idTransaccion: id,
      buyOrder: 'O-SEARCH-1',
      stores: [{ productId: '00000000-0000-4000-8000-000000000000', numeroProducto: '1', amount: 5_000, commerceCode: '597055555536', buyOrder: 'O-SEARCH-1-1' }],
    });
    const agente = await operatorSession(op(), 'agente');
    const find = async (ref: string) => (await op().inject({ method: 'GET', url: `/admin/pagos?referencia=${ref}`, headers: { cookie: agente.cookie } })).json().consolaResponse.pagos as { idTransaccion: string; ordenesCompra: string[]; estado: string }[];
    expect(await find('O-SEARCH-1')).toEqual([expect.objectContaining({ idTransaccion: id, ordenesCompra: ['O-SEARCH-1'], estado: 'pending' })]);
    expect((await find('O-SEARCH-1-1')).map((p) => p.idTransaccion)).toEqual([id]);
    expect(await find('O-SEARCH')).toEqual([]);
    const admin = await operatorSession(op(), 'admin');
    expect((await op().inject({ method: 'GET', url: '/admin/pagos', headers: { cookie: admin.cookie } })).statusCode).toBe(403);
  });
});
