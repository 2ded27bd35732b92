import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DESCRIPCION_PRODUCTO, PAYMENT_METHOD_LABELS, voucherLineLabel } from './call-consultar-pago-plain';

describe('what a voucher calls a paid line', () => {
  it('names instalments of credits, counts shares, and gives deposits and card statements as amounts', () => {
    expect(voucherLineLabel(DESCRIPCION_PRODUCTO.PC, { numeroCuota: 38, cantidadCuotas: 1 })).toBe('Cuota Nº 38');
    expect(voucherLineLabel(DESCRIPCION_PRODUCTO.HI, { numeroCuota: 3, cantidadCuotas: 2 })).toBe('2 cuotas');
    expect(voucherLineLabel(DESCRIPCION_PRODUCTO.CP, { numeroCuota: 4, cantidadCuotas: 1 })).toBe('1 cuota');
    expect(voucherLineLabel(DESCRIPCION_PRODUCTO.CP, { numeroCuota: 4, cantidadCuotas: 3 })).toBe('3 cuotas');
    expect(voucherLineLabel(DESCRIPCION_PRODUCTO.AH, { numeroCuota: 0, cantidadCuotas: 1 })).toBe('Monto depositado');
    expect(voucherLineLabel(DESCRIPCION_PRODUCTO.TC, { numeroCuota: 1, cantidadCuotas: 1 })).toBe('Monto pagado');
  });

  it('never calls a card statement an instalment, whatever its number', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 60 }), (numeroCuota, cantidadCuotas) => {
        expect(voucherLineLabel(DESCRIPCION_PRODUCTO.TC, { numeroCuota, cantidadCuotas })).toBe('Monto pagado');
      }),
    );
  });

  it("says the method in the spec's one word", () => {
    expect(PAYMENT_METHOD_LABELS['CUENTA VISTA']).toBe('Debito');
    expect(PAYMENT_METHOD_LABELS.WEBPAY).toBe('Webpay');
  });
});
