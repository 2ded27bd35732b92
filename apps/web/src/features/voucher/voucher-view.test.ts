import { describe, expect, it } from 'vitest';
import { factorLabel, voucherView } from './voucher-view';
import { samplePago } from './voucher-test-fixtures';

const pago = samplePago;

describe('voucherView', () => {
  it('shows one credit instalment with its number, masked product, date and time to the second', () => {
    expect(voucherView([pago()])).toEqual({
      idTransaccion: 'trx-1',
      total: 156_300,
      date: '21/11/2026',
      time: '13:00:42',
      paymentMethod: 'Debito',
      account: 'Cuenta Vista ****5601',
      rutDeudor: '11.111.111-1',
      products: [
        {
          name: 'Crédito MYPE',
          number: '****7788',
          authorisation: '557248',
          lines: [{ label: 'Cuota Nº 9', amount: 156_300 }],
          instalments: 1,
          subtotal: 156_300,
        },
      ],
    });
  });

  it('adds up several products and instalments', () => {
    const view = voucherView([
      pago({
        descripcionProducto: 'CREDITO DE CONSUMO',
        detallePago: [
          { numeroCuota: 21, montoPagado: 85_430, numeroAutorizacion: '1', cantidadCuotas: 1 },
          { numeroCuota: 22, montoPagado: 85_430, numeroAutorizacion: '1', cantidadCuotas: 1 },
        ],
      }),
      pago({ numeroProducto: '410087654321', descripcionProducto: 'CREDITO DE CONSUMO', detallePago: { numeroCuota: 11, montoPagado: 62_150, numeroAutorizacion: '2', cantidadCuotas: 1 } }),
    ]);
    expect(view?.total).toBe(233_010);
    expect(view?.products.map((p) => p.lines.map((l) => l.label))).toEqual([['Cuota Nº 21', 'Cuota Nº 22'], ['Cuota Nº 11']]);
    expect(view?.products[1]?.name).toBe('Crédito de Consumo');
    expect(view?.products.map((p) => p.instalments)).toEqual([2, 1]);
    expect(view?.products.map((p) => p.authorisation)).toEqual(['1', '2']);
  });

  it('lists every authorisation number of a product once', () => {
    const view = voucherView([
      pago({
        detallePago: [
          { numeroCuota: 9, montoPagado: 1_000, numeroAutorizacion: 'A1', cantidadCuotas: 1 },
          { numeroCuota: 10, montoPagado: 1_000, numeroAutorizacion: 'A2', cantidadCuotas: 1 },
          { numeroCuota: 11, montoPagado: 1_000, numeroAutorizacion: 'A2', cantidadCuotas: 1 },
        ],
      }),
    ]);
    expect(view?.products[0]?.authorisation).toBe('A1, A2');
  });

  it('labels shares by count, deposits and card payments by amount, and keeps unknown descriptions', () => {
    const shares = voucherView([pago({ descripcionProducto: 'CUOTAS DE PARTICIPACIÓN', detallePago: { numeroCuota: 1, montoPagado: 15_000, numeroAutorizacion: '1', cantidadCuotas: 3 } })]);
    expect(shares?.products[0]?.lines[0]?.label).toBe('3 cuotas');
    expect(shares?.products[0]?.instalments).toBe(3);
    const deposit = voucherView([pago({ descripcionProducto: 'CUENTAS DE AHORRO', detallePago: { numeroCuota: 0, montoPagado: 20_000, numeroAutorizacion: '1', cantidadCuotas: 1 } })]);
    expect(deposit?.products[0]?.lines[0]?.label).toBe('Monto depositado');
    expect(deposit?.products[0]?.instalments).toBeNull();
    const card = voucherView([pago({ descripcionProducto: 'TARJETA DE CREDITO', detallePago: { numeroCuota: 1, montoPagado: 35_000, numeroAutorizacion: '1', cantidadCuotas: 1 } })]);
    expect(card?.products[0]?.lines[0]?.label).toBe('Monto pagado');
    expect(card?.products[0]?.name).toBe('Tarjeta de Crédito');
    expect(card?.products[0]?.instalments).toBeNull();
    expect(voucherView([pago({ descripcionProducto: 'OTRO PRODUCTO' })])?.products[0]?.name).toBe('OTRO PRODUCTO');
    const webpay = voucherView([pago({ medioPago: 'WEBPAY', cuentaPago: '**** 6623' })]);
    expect(webpay?.paymentMethod).toBe('Webpay');
    expect(webpay?.account).toBe('**** 6623');
  });

  it('has nothing to show without payments', () => {
    expect(voucherView([])).toBeNull();
  });
});

describe('factorLabel', () => {
  it('names the factor the payment was authorised with', () => {
    expect(factorLabel('TCOO')).toBe('Tarjeta de coordenadas');
    expect(factorLabel('PassCoop')).toBe('PassCoop');
    expect(factorLabel(null)).toBeNull();
    expect(factorLabel('<script>')).toBeNull();
  });
});
