import { describe, expect, it } from 'vitest';
import type { Selection } from '../../lib/app-store';
import { resolveSelection, toSeleccionarRequest } from './selection-request';
import { everyFamily, product, detalle } from './test-builders';

const products = [...everyFamily(), product('PC', '410087654321', [detalle(11, '20300616')])];
const session = { rut: '11111111-1', token: 'token-de-sesion' };

function request(selection: Selection) {
  const resolved = resolveSelection(selection, products, selection.family ?? 'PC');
  if (!resolved) throw new Error('selection did not resolve');
  return toSeleccionarRequest(resolved, session).seleccionarProductoRequest;
}

describe('the selection request (call 3)', () => {
  it('carries the session and one product per product to pay, named from the product list', () => {
    const body = request({
      family: 'PC',
      productsToPay: [
        { productNumber: '410012345678', installment: ['21|85430|20300612|A|0', '22|20000|20300712|A|0'] },
        { productNumber: '410087654321', installment: ['11|85430|20300616|A|0'] },
      ],
      amount: 190_860,
    });
    expect(body).toEqual({
      userId: '11111111-1',
      canalLlamada: 'PGEX',
      token: 'token-de-sesion',
      rut: '11111111-1',
      producto: [
        {
          numeroProducto: '410012345678',
          tipoFamiliaProducto: 'PC',
          nombreFamiliaProducto: 'Crédito de Consumo',
          detalleProducto: [
            { numeroCuota: '21', valorAPagar: 85_430, fechaVencimiento: '20300612' },
            { numeroCuota: '22', valorAPagar: 20_000, fechaVencimiento: '20300712' },
          ],
        },
        {
          numeroProducto: '410087654321',
          tipoFamiliaProducto: 'PC',
          nombreFamiliaProducto: 'Crédito de Consumo',
          detalleProducto: [{ numeroCuota: '11', valorAPagar: 85_430, fechaVencimiento: '20300616' }],
        },
      ],
    });
  });

  it('sends a savings deposit with cuota "0" and date "0"', () => {
    const body = request({
      family: 'AH',
      productsToPay: [{ productNumber: '700011110001', installment: ['700011110001|25000|A|0'] }],
      amount: 25_000,
    });
    expect(body.producto).toEqual([
      {
        numeroProducto: '700011110001',
        tipoFamiliaProducto: 'AH',
        nombreFamiliaProducto: 'Cuenta de Ahorro',
        detalleProducto: [{ numeroCuota: '0', valorAPagar: 25_000, fechaVencimiento: '0' }],
      },
    ]);
  });

  it('sends the card amount with the statement number and due date', () => {
    const body = request({
      family: 'TC',
      productsToPay: [{ productNumber: '5412000011112222', installment: ['1|120000|20300625|A|0'] }],
      amount: 120_000,
    });
    expect(body.producto[0]?.detalleProducto).toEqual([
      { numeroCuota: '1', valorAPagar: 120_000, fechaVencimiento: '20300625' },
    ]);
  });
});

describe('resolveSelection refuses what step 2 did not leave for this category', () => {
  const pc = (installment: string[], productNumber = '410012345678'): Selection => ({
    family: 'PC',
    productsToPay: [{ productNumber, installment }],
    amount: 1,
  });

  it.each<[string, Selection]>([
    ['no selection', { family: null, productsToPay: [], amount: 0 }],
    ['no product to pay', { family: 'PC', productsToPay: [], amount: 0 }],
    ['a product without instalments', pc([])],
    ['a product that is not in the list', pc(['21|85430|20300612|A|0'], '999')],
    ['an unreadable installment string', pc(['21|ochenta|20300612|A|0'])],
    ['an amount of 0', pc(['21|0|20300612|A|0'])],
  ])('%s', (_label, selection) => {
    expect(resolveSelection(selection, products, 'PC')).toBeNull();
  });

  it('a selection of another category', () => {
    const selection = pc(['21|85430|20300612|A|0']);
    expect(resolveSelection(selection, products, 'HI')).toBeNull();
    expect(resolveSelection({ ...selection, family: 'HI' }, products, 'HI')).toBeNull();
  });
});
