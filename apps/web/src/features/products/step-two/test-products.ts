import { detalle as cuota, product as producto } from '../test-builders';

// The product lists of step 2's tests (call 2's wire shapes), on the builders of the products feature.

export { cuota, producto };

/** Like the demo member 11.111.111-1's first consumer credit: four instalments, partial payments allowed. */
export const pcWithAbono = () =>
  producto(
    'PC',
    '410012345678',
    // Sent newest first on purpose: the screen orders them itself.
    [cuota(24, '20250910'), cuota(23, '20250811'), cuota(22, '20250712'), cuota(21, '20250612')],
    { permiteAbono: true, permiteMultipleAbono: true, montoMinimoAbonoMultiple: 10_000, fechaVigenciaAbono: '20251231' },
  );

/** Like 11.111.111-1's second consumer credit: two instalments paid by payroll deduction. */
export const pcConvenio = () =>
  producto('PC', '410087654321', [
    cuota(11, '20250616', { montoPendiente: 62_150, pagoMinimo: 62_150, medioPago: 'CONVENIO' }),
    cuota(12, '20250716', { montoPendiente: 62_150, pagoMinimo: 62_150, medioPago: 'CONVENIO' }),
  ]);

/** Like 9.876.543-3's mortgage: two instalments past 30 days of grace, two current. */
export const hiOverdue = () =>
  producto('HI', '520098765432', [
    cuota(61, '20250301', { montoPendiente: 398_200, pagoMinimo: 398_200, codigoEstadoCuota: 'V', diasMora: 75 }),
    cuota(62, '20250331', { montoPendiente: 398_200, pagoMinimo: 398_200, codigoEstadoCuota: 'V', diasMora: 45 }),
    cuota(63, '20250530', { montoPendiente: 398_200, pagoMinimo: 398_200 }),
    cuota(64, '20250629', { montoPendiente: 398_200, pagoMinimo: 398_200 }),
  ]);

export const cpShares = (count = 6) =>
  producto(
    'CP',
    '700011111111',
    Array.from({ length: count }, (_, i) =>
      cuota(i + 1, `2025${String(i + 6).padStart(2, '0')}10`, { montoPendiente: 5_000, pagoMinimo: 5_000 }),
    ),
  );

export const savingsAccount = (numeroProducto: string) =>
  producto('AH', numeroProducto, cuota(0, '20250515', { montoPendiente: 0, pagoMinimo: 0 }));

export const creditCard = (montoPendiente = 350_000, pagoMinimo = 35_000) =>
  producto('TC', '5412751234567890', cuota(1, '20250527', { montoPendiente, pagoMinimo }), {
    fechaFacturacion: '20250427',
  });
