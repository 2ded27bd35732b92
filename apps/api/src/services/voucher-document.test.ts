import type { Pago } from '@pago/domain/schemas/call-consultar-pago';
import { describe, expect, it } from 'vitest';
import { voucherText } from './voucher-document';

const pago = (over: Partial<Pago>): Pago => ({
  numeroProducto: 'ab12cd34ef56gh784321',
  descripcionProducto: 'CREDITO DE CONSUMO',
  detallePago: { numeroCuota: 9, montoPagado: 156_300, numeroAutorizacion: '557248', cantidadCuotas: 1 },
  rutDeudor: '11.111.111-1',
  fechaPago: '20261125',
  horaPago: '12:00:00',
  medioPago: 'CUENTA VISTA',
  idTransaccion: '700011111111',
  cuentaPago: '****5601',
  email: '',
  ...over,
});

describe('the text of the PDF and the e-mail', () => {
  const text = (pagos: Pago[], authorisedWith: string | null = null) => voucherText({ cooperative: 'C', pagos, authorisedWith });

  it("names the method in the member's word, and the factor when one authorised the payment", () => {
    const method = (p: Pago) => Object.fromEntries(text([p]).details)['Medio de pago'];
    expect(method(pago({}))).toBe('Débito');
    expect(method(pago({ medioPago: 'WEBPAY', cuentaPago: '**** 6623' }))).toBe('Webpay');
    expect(Object.fromEntries(text([pago({})], 'PassCoop').details)['Autorizado con']).toBe('PassCoop');
    expect(text([pago({ medioPago: 'WEBPAY', cuentaPago: '**** 6623' })]).details.map(([label]) => label)).not.toContain('Autorizado con');
  });

  it('gives a card statement as an amount paid, an instalment by its number, and each product its foot rows', () => {
    const card = pago({ descripcionProducto: 'TARJETA DE CREDITO', medioPago: 'WEBPAY', detallePago: { numeroCuota: 1, montoPagado: 35_000, numeroAutorizacion: '1213', cantidadCuotas: 1 } });
    const products = text([pago({}), card]).products;
    expect(products.map((p) => p.title)).toEqual(['Crédito de Consumo Nº ****4321', 'Tarjeta de Crédito Nº ****4321']);
    expect(products.map((p) => p.lines[0])).toEqual([
      ['Cuota Nº 9', '$156.300'],
      ['Monto pagado', '$35.000'],
    ]);
    expect(products.map((p) => p.foot)).toEqual([
      [
        ['Nº de autorización', '557248'],
        ['Cantidad de cuotas', '1'],
      ],
      [['Nº de autorización', '1213']],
    ]);
  });
});
