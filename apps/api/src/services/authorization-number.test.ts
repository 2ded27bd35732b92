import { demoCoordinateCard } from '@pago/domain/demo-members';
import type { ProductoSeleccionado } from '@pago/domain/schemas/call-seleccionar';
import { describe, expect, it } from 'vitest';
import { listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar, productNumbered } from '../../test/support/member-calls';
import { appPerTest, DATABASE_KINDS, type TestApp } from '../../test/support/test-app';

/** Pays `numeros`' oldest instalments for 11.111.111-1 from its own account; answers each line's authorisation number. */
async function payOwnAccount(t: TestApp, numeros: string[]): Promise<string[]> {
  const rut = '11111111-1';
  const { token, productos } = await listProducts(t.app, rut);
  const selected: ProductoSeleccionado[] = numeros.map((n) => oldest(productNumbered(productos, n), 1));
  expect((await postSeleccionar(t.app, token, rut, selected)).statusCode).toBe(200);
  const login = await postAutentica(t.app, token, rut, '1234');
  const numeroCuenta = login.json().autenticaConsultaFactoresResponse.numeroCuenta as string;
  const challenge = await postAutorizar(t.app, token, rut, rut, 1);
  const card = demoCoordinateCard(rut);
  const valores = (challenge.json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
  const paid = await postPagar(t.app, { token, rutTitular: rut, rutPago: rut, numeroCuenta, factor: 1, valores });
  expect(paid.statusCode).toBe(200);
  const pagados = [paid.json().pagarProductoCVResponse.productoPagadoCV].flat() as { numeroAutorizacion: string }[];
  expect(pagados).toHaveLength(numeros.length);
  return pagados.map((p) => p.numeroAutorizacion);
}

describe.each(DATABASE_KINDS)('own-account authorisation numbers on %s', (kind) => {
  const t = appPerTest(kind);

  it('gives each payment its own six-digit number, the same on all its lines, never repeated', async () => {
    // One product (a transfer in the core), then two at once (a batch of repayments): the core's own ids of these
    // count apart and both start at 1, which once put 000001 on two vouchers.
    const first = await payOwnAccount(t, ['630055667788']);
    const second = await payOwnAccount(t, ['410012345678', '410087654321']);
    const third = await payOwnAccount(t, ['630055667788']);
    for (const numbers of [first, second, third]) {
      expect(numbers.length).toBeGreaterThan(0);
      expect(new Set(numbers).size).toBe(1);
      expect(numbers[0]).toMatch(/^\d{6,}$/);
    }
    expect(new Set([first[0], second[0], third[0]]).size).toBe(3);
  });
});
