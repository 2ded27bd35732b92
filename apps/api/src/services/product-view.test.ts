import { toWireDate } from '@pago/domain/dates';
import { instalmentState } from '@pago/domain/products';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListedProduct } from '../repositories/product-repository';
import { isoToWire, toWireProduct } from './product-view';

/** Any calendar date the wire format can carry, as PostgreSQL writes a `date`: yyyy-mm-dd, the year in four digits. */
const isoDates = fc
  .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .filter(({ year, month, day }) => {
    try {
      toWireDate(year, month, day);
      return true;
    } catch {
      return false;
    }
  })
  .map(({ year, month, day }) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);

const credit = (fechasVencimiento: string[]): ListedProduct => ({
  product: {
    family: 'PC',
    numeroProducto: '0012345',
    permiteAbono: true,
    permiteMultipleAbono: false,
    montoMinimoAbonoMultiple: 0,
    fechaVigenciaAbono: null,
    fechaFacturacion: null,
    deudaTotal: 1_000_000,
    deudaTotalInternacional: 0,
    cupoTotal: 0,
    numeroCuotasPactadas: fechasVencimiento.length,
  },
  instalments: fechasVencimiento.map((fechaVencimiento, i) => ({
    numeroCuota: i + 1,
    montoPendiente: 50_000,
    pagoMinimo: 50_000,
    fechaVencimiento,
    medioPago: null,
  })),
});


describe('toWireProduct', () => {
  it('gives every instalment the overdue state instalmentState gives it on the business day', () => {
    fc.assert(
      fc.property(fc.array(isoDates, { minLength: 1, maxLength: 60 }), isoDates, (dues, todayIso) => {
        const today = isoToWire(todayIso);
        const producto = toWireProduct(credit(dues), today);
        const detalles = producto?.listaDetalleProductos;
        expect(Array.isArray(detalles)).toBe(true);
        const list = detalles as { fechaVencimiento: string; codigoEstadoCuota: string; diasMora: number }[];
        expect(list.map((d) => d.fechaVencimiento)).toEqual(dues.map(isoToWire));
        for (const d of list) {
          expect({ codigoEstadoCuota: d.codigoEstadoCuota, diasMora: d.diasMora }).toEqual(instalmentState(d.fechaVencimiento, today));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('counts an instalment due yesterday as one day overdue, and one due today as current', () => {
    const producto = toWireProduct(credit(['2026-11-20', '2026-11-21', '2026-12-21']), '20261121');
    expect(producto?.listaDetalleProductos).toMatchObject([
      { fechaVencimiento: '20261120', codigoEstadoCuota: 'V', diasMora: 1 },
      { fechaVencimiento: '20261121', codigoEstadoCuota: 'A', diasMora: 0 },
      { fechaVencimiento: '20261221', codigoEstadoCuota: 'A', diasMora: 0 },
    ]);
  });
});
