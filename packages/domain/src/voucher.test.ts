import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pago } from './schemas/answers';
import { VOUCHER_DESCRIPTIONS as DESCRIPCION_PRODUCTO } from './families';
import { maskedRut, productFootRows, productTitle, voucherDetails, voucherLineLabel, voucherOf } from './voucher';

const pago = (over: Partial<Pago> = {}): Pago => ({
  numeroProducto: '****7788',
  descripcionProducto: 'CREDITO MYPE',
  detallePago: { numeroCuota: 9, montoPagado: 156_300, numeroAutorizacion: '557248', cantidadCuotas: 1 },
  rutDeudor: '11.111.111-1',
  fechaPago: '20261121',
  horaPago: '13:00:42',
  medioPago: 'CUENTA VISTA',
  idTransaccion: 'trx-1',
  cuentaPago: '****5601',
  email: 'cam***@example.cl',
  ...over,
});

describe('what a voucher calls a paid line', () => {
  it('names instalments of credits, counts shares, and gives deposits and card statements as amounts', () => {
    expect(voucherLineLabel('PC', { numeroCuota: 38, cantidadCuotas: 1 })).toBe('Cuota Nº 38');
    expect(voucherLineLabel('HI', { numeroCuota: 3, cantidadCuotas: 2 })).toBe('2 cuotas');
    expect(voucherLineLabel('CP', { numeroCuota: 4, cantidadCuotas: 1 })).toBe('1 cuota');
    expect(voucherLineLabel('CP', { numeroCuota: 4, cantidadCuotas: 3 })).toBe('3 cuotas');
    expect(voucherLineLabel('AH', { numeroCuota: 0, cantidadCuotas: 1 })).toBe('Monto depositado');
    expect(voucherLineLabel('TC', { numeroCuota: 1, cantidadCuotas: 1 })).toBe('Monto pagado');
  });

  it('keeps a partial payment of an instalment named as one', () => {
    expect(voucherLineLabel('PC', { numeroCuota: 21, cantidadCuotas: 0 })).toBe('Cuota Nº 21 · Abono parcial');
  });

  it('never calls a card statement an instalment, whatever its number', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 60 }), (numeroCuota, cantidadCuotas) => {
        expect(voucherLineLabel('TC', { numeroCuota, cantidadCuotas })).toBe('Monto pagado');
      }),
    );
  });
});

describe('the voucher of every channel', () => {
  it('names the fields once, in Spanish with accents, with every number masked alike', () => {
    const voucher = voucherOf([pago()], 'Tarjeta de coordenadas')!;
    expect(voucherDetails(voucher)).toEqual([
      ['Fecha y hora', '21/11/2026 13:00:42'],
      ['Medio de pago', 'Débito'],
      ['Cuenta de pago', 'Cuenta Vista ****5601'],
      ['Autorizado con', 'Tarjeta de coordenadas'],
      ['RUT del socio', '**.***.111-1'],
      ['Nº de transacción', 'trx-1'],
    ]);
    const [product] = voucher.products;
    expect(productTitle(product!)).toBe('Crédito MYPE Nº ****7788');
    expect(product!.lines).toEqual([{ label: 'Cuota Nº 9', amount: 156_300 }]);
    expect(productFootRows(product!)).toEqual([
      ['Nº de autorización', '557248'],
      ['Cantidad de cuotas', '1'],
    ]);
  });

  it('shows a card as the account does, and leaves out the factor when none authorised the payment', () => {
    for (const cuentaPago of ['**** 6623', '****6623']) {
      const voucher = voucherOf([pago({ medioPago: 'WEBPAY', cuentaPago })])!;
      expect(voucher.method).toBe('Webpay');
      expect(voucher.account).toBe('Tarjeta ****6623');
      expect(voucherDetails(voucher).map(([label]) => label)).not.toContain('Autorizado con');
    }
  });

  it('adds up several products, counts whole instalments only, and lists each authorisation once', () => {
    const voucher = voucherOf([
      pago({
        descripcionProducto: 'CREDITO DE CONSUMO',
        detallePago: [
          { numeroCuota: 21, montoPagado: 50_000, numeroAutorizacion: 'A1', cantidadCuotas: 0 },
          { numeroCuota: 22, montoPagado: 85_430, numeroAutorizacion: 'A1', cantidadCuotas: 1 },
        ],
      }),
      pago({ descripcionProducto: 'CREDITO DE CONSUMO', detallePago: { numeroCuota: 11, montoPagado: 30_000, numeroAutorizacion: 'B2', cantidadCuotas: 0 } }),
      pago({ descripcionProducto: 'CUENTAS DE AHORRO', detallePago: { numeroCuota: 0, montoPagado: 10_000, numeroAutorizacion: 'C3', cantidadCuotas: 1 } }),
    ])!;
    expect(voucher.total).toBe(175_430);
    expect(voucher.products.map((p) => p.instalments)).toEqual([1, null, null]);
    expect(voucher.products.map((p) => p.lines[0]?.label)).toEqual(['Cuota Nº 21 · Abono parcial', 'Cuota Nº 11 · Abono parcial', 'Monto depositado']);
    expect(voucher.products.map((p) => p.authorisation)).toEqual(['A1', 'B2', 'C3']);
  });

  it('counts shares, gives deposits and cards as amounts, and keeps a description it does not know', () => {
    const one = (over: Partial<Pago>) => voucherOf([pago(over)])!.products[0]!;
    const shares = one({ descripcionProducto: 'CUOTAS DE PARTICIPACIÓN', detallePago: { numeroCuota: 1, montoPagado: 15_000, numeroAutorizacion: '1', cantidadCuotas: 3 } });
    expect([shares.name, shares.lines[0]?.label, shares.instalments]).toEqual(['Cuotas de Participación', '3 cuotas', 3]);
    const card = one({ descripcionProducto: 'TARJETA DE CREDITO', detallePago: { numeroCuota: 1, montoPagado: 35_000, numeroAutorizacion: '1', cantidadCuotas: 1 } });
    expect([card.name, card.lines[0]?.label, card.instalments]).toEqual(['Tarjeta de Crédito', 'Monto pagado', null]);
    expect(one({ descripcionProducto: 'OTRO PRODUCTO' }).name).toBe('OTRO PRODUCTO');
  });

  it('never shows more of a RUT than its last three digits and check digit', () => {
    expect(maskedRut('11.111.111-1')).toBe('**.***.111-1');
    expect(maskedRut('9876543-3')).toBe('*.***.543-3');
    expect(maskedRut('19.191.919-K')).toBe('**.***.919-K');
  });

  it('has nothing to show without a payment', () => {
    expect(voucherOf([])).toBeNull();
  });
});

describe('a voucher drawn from its family code', () => {
  it('draws a stored voucher by its family code, whatever its description says', () => {
    // A family's voucher description edited after the voucher was stored does not change how it is drawn.
    const stored = voucherOf([pago({ tipoFamiliaProducto: 'AH', descripcionProducto: 'AHORRO VIVIENDA (texto nuevo)', detallePago: { numeroCuota: 0, montoPagado: 20_000, numeroAutorizacion: '1', cantidadCuotas: 1 } })])!;
    expect(stored.products[0]).toMatchObject({ name: 'Cuenta de Ahorro', lines: [{ label: 'Monto depositado', amount: 20_000 }], instalments: null });
  });

  it('still draws a voucher stored before the code, by its description', () => {
    const old = voucherOf([pago()])!;
    expect(old.products[0]).toMatchObject({ name: 'Crédito MYPE', lines: [{ label: 'Cuota Nº 9' }], instalments: 1 });
    expect(voucherOf([pago({ tipoFamiliaProducto: 'PM' })])).toEqual(old);
  });

  it('draws every family the same from its code as from its description', () => {
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(DESCRIPCION_PRODUCTO) as (keyof typeof DESCRIPCION_PRODUCTO)[])), fc.integer({ min: 0, max: 3 }), (family, cantidadCuotas) => {
        const detallePago = { numeroCuota: 4, montoPagado: 1_000, numeroAutorizacion: '9', cantidadCuotas };
        const byCode = voucherOf([pago({ tipoFamiliaProducto: family, descripcionProducto: 'otra', detallePago })]);
        const byDescription = voucherOf([pago({ descripcionProducto: DESCRIPCION_PRODUCTO[family], detallePago })]);
        expect(byCode).toEqual(byDescription);
      }),
    );
  });
});
