import { toWireDate } from '@pago/domain/dates';
import { instalmentState } from '@pago/domain/products';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListedProduct } from '../repositories/product-repository';
import { maskProductNumber } from '@pago/domain/products';
import { randomUUID } from 'node:crypto';
import { isoToWire, productRef, toWireProduct } from './product-view';

const SESSION = 'a3c1e9b2-5d47-4f08-8e6a-0b9d2c7f4e15';

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
    id: '7d4c5f0e-3b1a-4f7e-9c51-2a6b8e0d1f23',
    family: 'PC',
    numeroProducto: '0012345',
    permiteAbono: true,
    permiteMultipleAbono: false,
    montoMinimoAbonoMultiple: 0,
    fechaVigenciaAbono: null,
    fechaFacturacion: null,
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
        const producto = toWireProduct(credit(dues), today, SESSION);
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
    const producto = toWireProduct(credit(['2026-11-20', '2026-11-21', '2026-12-21']), '20261121', SESSION);
    expect(producto?.listaDetalleProductos).toMatchObject([
      { fechaVencimiento: '20261120', codigoEstadoCuota: 'V', diasMora: 1 },
      { fechaVencimiento: '20261121', codigoEstadoCuota: 'A', diasMora: 0 },
      { fechaVencimiento: '20261221', codigoEstadoCuota: 'A', diasMora: 0 },
    ]);
  });
});

describe('productRef', () => {
  const numbers = fc.stringMatching(/^\d{6,20}$/);

  it('ends with the last four digits, so the masked number on screen is the real one, and hides the rest', () => {
    fc.assert(
      fc.property(numbers, (numeroProducto) => {
        const ref = productRef(randomUUID(), { id: randomUUID(), numeroProducto });
        expect(maskProductNumber(ref)).toBe(maskProductNumber(numeroProducto));
        expect(ref).toMatch(/^[\w-]{16}\d{4}$/);
        if (numeroProducto.length > 8) expect(ref).not.toContain(numeroProducto.slice(0, -4));
      }),
    );
  });

  it('names a product differently in every session, and two products differently in one', () => {
    const product = { id: randomUUID(), numeroProducto: '630055667788' };
    expect(productRef(SESSION, product)).toBe(productRef(SESSION, product));
    expect(productRef(randomUUID(), product)).not.toBe(productRef(SESSION, product));
    expect(productRef(SESSION, { id: randomUUID(), numeroProducto: '630055667788' })).not.toBe(productRef(SESSION, product));
  });

  it('is what the list answers as numeroProducto, and the list sends no debts, limits or instalment counts', () => {
    const producto = toWireProduct(credit(['2026-12-21']), '20261121', SESSION)!;
    expect(producto.numeroProducto).toBe(productRef(SESSION, credit([]).product));
    for (const field of ['deudaTotal', 'deudaTotalInternacional', 'cupoTotal', 'numeroCuotasPactadas', 'numeroCuotasPendientes']) {
      expect(producto).not.toHaveProperty(field);
    }
  });
});
