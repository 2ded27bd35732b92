import type { Pago } from '@pago/domain/call-consultar-pago';
import { describe, expect, it } from 'vitest';
import { voucherLines } from './voucher-document';

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

describe('the lines of the PDF and the e-mail', () => {
  it("names the method once, in the spec's word", () => {
    const heading = (p: Pago) => Object.fromEntries(voucherLines({ cooperative: 'C', pagos: [p] }).heading)['Medio de pago'];
    expect(heading(pago({}))).toBe('Debito');
    expect(heading(pago({ medioPago: 'WEBPAY', cuentaPago: '**** 6623' }))).toBe('Webpay');
  });

  it('gives a card statement as an amount paid, and an instalment by its number', () => {
    const card = pago({ descripcionProducto: 'TARJETA DE CREDITO', medioPago: 'WEBPAY', detallePago: { numeroCuota: 1, montoPagado: 35_000, numeroAutorizacion: '1213', cantidadCuotas: 1 } });
    const lines = voucherLines({ cooperative: 'C', pagos: [pago({}), card] }).products.map((p) => p.lines[0]);
    expect(lines).toEqual([
      ['Cuota Nº 9', '$156.300'],
      ['Monto pagado', '$35.000'],
    ]);
  });
});
