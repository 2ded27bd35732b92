import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { members, products, transactions } from '../../src/db/schema';
import { errorCode, listProducts, oldest, postAutentica, postAutorizar, postConsultarPago, postPagar, postSeleccionar, postListar, productNumbered, solveCaptcha } from '../support/member-calls';
import { readPdf } from '../support/pdf-text';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { recordFigures } from './settings';

// What someone who knows only a RUT (and solves the captcha) learns of a member's products, and what the
// references the list gives are good for.

const RUT = '11111111-1';
const SEL = 'seleccionarProductoResponse';

describe.each(DATABASE_KINDS)('disclosure by RUT alone (%s)', (kind) => {
  let t: TestApp;
  let attacks = 0;

  beforeEach(async () => {
    t = await startTestApp(kind);
  });
  afterEach(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: attacks });
    attacks = 0;
    await t?.close();
  });

  const numbersOf = async (rut: string) =>
    (await t.database.db.select({ numero: products.numeroProducto }).from(products).innerJoin(members, eq(members.id, products.memberId)).where(eq(members.rut, rut))).map((r) => r.numero);

  it('lists no product number but its last four digits, and no debt, limit or instalment count', async () => {
    attacks++;
    const res = await postListar(t.app, RUT, await solveCaptcha(t.app));
    expect(res.statusCode).toBe(200);
    const numbers = await numbersOf(RUT);
    expect(numbers.length).toBeGreaterThan(4);
    for (const numero of numbers) {
      expect(res.body).not.toContain(numero.slice(0, -4));
      expect(res.body).toContain(numero.slice(-4));
    }
    for (const field of ['deudaTotal', 'deudaTotalInternacional', 'cupoTotal', 'numeroCuotasPactadas', 'numeroCuotasPendientes']) {
      expect(res.body).not.toContain(field);
    }
  });

  it('accepts a product reference only in the session that listed it, and never the product’s own number', async () => {
    attacks++;
    const mine = await listProducts(t.app, RUT);
    const other = await listProducts(t.app, RUT);
    const pm = productNumbered(mine.productos, '630055667788');
    const selection = oldest(pm, 1);
    expect(productNumbered(other.productos, '630055667788').numeroProducto).not.toBe(pm.numeroProducto);

    expect(errorCode(await postSeleccionar(t.app, other.token, RUT, [selection]), SEL)).toBe('47678');
    expect(errorCode(await postSeleccionar(t.app, mine.token, RUT, [{ ...selection, numeroProducto: '630055667788' }]), SEL)).toBe('47678');
    // A reference of another member's list, in a session of this RUT.
    const stranger = productNumbered((await listProducts(t.app, '15432876-9')).productos, '630043218765');
    expect(errorCode(await postSeleccionar(t.app, mine.token, RUT, [{ ...oldest(stranger, 1), numeroProducto: stranger.numeroProducto }]), SEL)).toBe('47678');
    expect(await t.database.db.$count(transactions)).toBe(0);

    expect(errorCode(await postSeleccionar(t.app, mine.token, RUT, [selection]), SEL)).toBeUndefined();
  });

  it('shows only the masked number in the payment’s answer, the voucher and its PDF', async () => {
    attacks++;
    const { token, productos } = await listProducts(t.app, RUT);
    const sel = (await postSeleccionar(t.app, token, RUT, [oldest(productNumbered(productos, '630055667788'), 1)])).json()[SEL];
    const numeroCuenta = (await postAutentica(t.app, token, RUT, '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta as string;
    const card = demoCoordinateCard(RUT);
    const cells = (await postAutorizar(t.app, token, RUT, RUT, 1)).json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[];
    const paid = await postPagar(t.app, { token, rutTitular: RUT, rutPago: RUT, numeroCuenta, factor: 1, valores: cells.map((c) => card[c.valor]!) });
    expect(paid.json().pagarProductoCVResponse.productoPagadoCV).toMatchObject({ numeroProducto: '****7788' });

    const voucher = await postConsultarPago(t.app, token, sel.idTransaccion as string);
    expect(voucher.statusCode).toBe(200);
    expect(voucher.body).toContain('****7788');
    expect(voucher.body).not.toContain('63005566');
    const pdf = await t.app.inject({ method: 'POST', url: '/api/comprobante/pdf', payload: { token, idTransaccion: sel.idTransaccion } });
    const text = (await readPdf(new Uint8Array(pdf.rawPayload))).text;
    expect(text).toContain('****7788');
    expect(text).not.toContain('63005566');
  });
});
