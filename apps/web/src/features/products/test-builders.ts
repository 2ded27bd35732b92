import { DEFAULT_PARAMETERS } from '@pago/domain/demo-members';
import { FAMILY_NAMES, type Family } from '@pago/domain/families';
import type { DetalleCuota, Producto } from '@pago/domain/products';

// Builders of call 2's wire shapes for the tests of steps 1 and 3 (nothing in the app imports this file).

export function detalle(numeroCuota: number, fechaVencimiento: string, more: Partial<DetalleCuota> = {}): DetalleCuota {
  return {
    numeroCuota,
    montoPendiente: 85_430,
    pagoMinimo: 20_000,
    fechaVencimiento,
    codigoEstadoCuota: 'A',
    diasMora: 0,
    medioPago: '',
    ...more,
  };
}

export function product(
  family: Family,
  numeroProducto: string,
  listaDetalleProductos: DetalleCuota | DetalleCuota[],
  more: Partial<Producto> = {},
): Producto {
  return {
    tipoFamiliaProducto: family,
    nombreFamiliaProducto: FAMILY_NAMES[family],
    numeroProducto,
    listaDetalleProductos,
    permiteAbono: false,
    permiteMultipleAbono: false,
    montoMinimoAbonoMultiple: 0,
    fechaVigenciaAbono: '',
    ...more,
  };
}

/** The demo member 11.111.111-1's list, one product per family (the consumer credit with the offer). */
export function everyFamily(): Producto[] {
  return [
    product('PC', '410012345678', [detalle(21, '20300612'), detalle(22, '20300712')], {
      permiteAbono: true,
      permiteMultipleAbono: true,
      montoMinimoAbonoMultiple: 10_000,
      fechaVigenciaAbono: '20301231',
    }),
    product('HI', '610011112222', [detalle(41, '20300605', { montoPendiente: 412_300 }), detalle(42, '20300705', { montoPendiente: 412_300 })]),
    product('PM', '520011223344', [detalle(7, '20300620', { montoPendiente: 150_000 })]),
    product('CP', '300012345678', [detalle(1, '20300630', { montoPendiente: 5_000 }), detalle(2, '20300730', { montoPendiente: 5_000 })]),
    product('TC', '5412000011112222', detalle(1, '20300625', { montoPendiente: 350_000, pagoMinimo: 35_000 }), { fechaFacturacion: '20300605' }),
    product('AH', '700011110001', detalle(0, '20300601', { montoPendiente: 0, pagoMinimo: 0 })),
  ];
}

/** Like 9.876.543-3's mortgage: two instalments past 30 days of grace, two current. */
export function overdueMortgage(): Producto {
  return product('HI', '610098765432', [
    detalle(61, '20300301', { montoPendiente: 398_200, codigoEstadoCuota: 'V', diasMora: 75 }),
    detalle(62, '20300401', { montoPendiente: 398_200, codigoEstadoCuota: 'V', diasMora: 45 }),
    detalle(63, '20300501', { montoPendiente: 398_200 }),
    detalle(64, '20300601', { montoPendiente: 398_200 }),
  ]);
}

/** The seed's parameters, as the home stores them. */
export const SEED_PARAMETERS: Readonly<Record<string, string>> = DEFAULT_PARAMETERS;
