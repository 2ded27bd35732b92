import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { causesOf, closeRefusal, compareDay, type ClosePayment, type ClosePosting, type CloseStore } from './day-close';
import { CORE_OPERATION_MOVES, TRANSACTION_MOVES, WEBPAY_ATTEMPT_MOVES, type CoreOperationStatus, type TransactionStatus, type WebpayAttemptStatus } from './payment-states';

const ID = 'a'.repeat(32);
const store = (over: Partial<CloseStore> = {}): CloseStore => ({ ordenCompra: 'PO0123456789abcdef-1', codigoComercio: '597055555536', monto: 30_000, estado: 'committed', ...over });
const posting = (over: Partial<ClosePosting> = {}): ClosePosting => ({ clave: 'PO0123456789abcdef-1', tipo: 'abono_webpay', estado: 'booked', monto: 30_000, montoCore: 30_000, codigoComercio: '597055555536', ...over });
const card = (over: Partial<ClosePayment> = {}): ClosePayment => ({ idTransaccion: ID, familia: 'PC', medioPago: 'WEBPAY', estado: 'paid', montoPagado: 30_000, tiendas: [store()], posteos: [posting()], ...over });
const own = (over: Partial<ClosePayment> = {}): ClosePayment => ({
  idTransaccion: 'b'.repeat(32),
  familia: 'CP',
  medioPago: 'CUENTA VISTA',
  estado: 'paid',
  montoPagado: 12_000,
  tiendas: [],
  posteos: [{ clave: `${'b'.repeat(32)}-1`, tipo: 'cuenta_vista', estado: 'booked', monto: 12_000, montoCore: 12_000, codigoComercio: null }],
  ...over,
});

describe('causesOf', () => {
  it('finds nothing when the three sides agree', () => {
    expect(causesOf(card())).toEqual([]);
    expect(causesOf(own())).toEqual([]);
  });

  it('names each difference', () => {
    expect(causesOf(card({ posteos: [posting({ estado: 'pending', montoCore: null })] }))).toEqual(['posteo_pendiente']);
    expect(causesOf(own({ estado: 'posting', montoPagado: 0, posteos: [{ ...own().posteos[0]!, estado: 'pending', montoCore: null }] }))).toEqual(['posteo_pendiente']);
    expect(causesOf(card({ posteos: [posting({ estado: 'refused', montoCore: null })] }))).toEqual(['rechazado_core']);
    expect(causesOf(card({ estado: 'expired', montoPagado: 0, tiendas: [store({ estado: 'refund_due' })], posteos: [] }))).toEqual(['devolucion_pendiente']);
    expect(causesOf(card({ estado: 'expired', montoPagado: 0, tiendas: [store({ estado: 'set_aside' })], posteos: [] }))).toEqual(['apartado']);
    expect(causesOf(card({ estado: 'pending', montoPagado: 0, tiendas: [store({ estado: 'pending' })], posteos: [] }))).toEqual(['webpay_sin_respuesta']);
    expect(causesOf(card({ estado: 'expired', montoPagado: 0, posteos: [] }))).toEqual(['cobrado_desconocido']);
    expect(causesOf(own({ estado: 'pending', montoPagado: 0, posteos: [{ ...own().posteos[0]!, estado: 'refused' }] }))).toEqual(['contabilizado_desconocido']);
    expect(causesOf(card({ posteos: [posting({ montoCore: 29_000 })] }))).toEqual(['montos_distintos']);
    expect(causesOf(own({ posteos: [] }))).toEqual(['montos_distintos']);
  });

  it('takes a refused credit posted again and booked as settled', () => {
    const retried = card({ posteos: [posting({ estado: 'refused', montoCore: null }), posting({ clave: 'PO0123456789abcdef-1.r1' })] });
    expect(causesOf(retried)).toEqual([]);
  });

  it('sees nothing to settle in a card charge Webpay gave back, nor in one it never took', () => {
    expect(causesOf(card({ estado: 'expired', montoPagado: 0, tiendas: [store({ estado: 'refunded' })], posteos: [] }))).toEqual([]);
    expect(causesOf(card({ estado: 'rejected', montoPagado: 0, tiendas: [store({ estado: 'rejected' })], posteos: [] }))).toEqual([]);
  });
});

describe('a reversed payment (decision 050)', () => {
  const ownDebit = own().posteos[0]!;
  const reversal = (over: Partial<ClosePosting> = {}): ClosePosting => ({ clave: `${ownDebit.clave}.x`, tipo: 'anulacion', estado: 'booked', monto: 12_000, montoCore: null, codigoComercio: null, ...over });

  it('agrees when the core undid the posting (nothing booked under either key) and Webpay gave the charge back', () => {
    expect(causesOf(own({ estado: 'reversed', montoPagado: 0, posteos: [{ ...ownDebit, montoCore: null }, reversal()] }))).toEqual([]);
    expect(causesOf(card({ estado: 'reversed', montoPagado: 0, tiendas: [store({ estado: 'refunded' })], posteos: [posting({ montoCore: null }), reversal({ clave: 'PO0123456789abcdef-1.x', monto: 30_000 })] }))).toEqual([]);
  });

  it('nets a transfer back against the debit it gives back', () => {
    const reversed = own({ estado: 'reversed', montoPagado: 0, posteos: [ownDebit, reversal({ montoCore: 12_000 })] });
    expect(causesOf(reversed)).toEqual([]);
    const day = compareDay([reversed], []);
    expect(day.lineas[0]!.core.monto).toBe(0);
    expect(day.porFamilia).toEqual([{ clave: 'CP', nuestro: 0, webpay: 0, core: 0 }]);
    expect(day.diferencias).toBe(0);
  });

  it('names a reversal the core has not booked yet, and a refund Webpay still owes', () => {
    expect(causesOf(own({ estado: 'reversing', montoPagado: 0, posteos: [ownDebit, reversal({ estado: 'pending' })] }))).toEqual(['anulacion_pendiente']);
    expect(causesOf(card({ estado: 'reversing', montoPagado: 0, tiendas: [store({ estado: 'refund_due' })], posteos: [posting({ montoCore: null }), reversal({ clave: 'PO0123456789abcdef-1.x' })] }))).toEqual(['devolucion_pendiente']);
  });
});

describe('compareDay', () => {
  it('adds each side per family and per commerce code, differences first', () => {
    const day = compareDay([own(), card({ posteos: [posting({ estado: 'pending', montoCore: null })] })], [{ clave: 'c'.repeat(32) + '-1', montoCore: 500 }]);
    expect(day.diferencias).toBe(2);
    expect(day.lineas.map((l) => l.causas)).toEqual([['posteo_pendiente'], ['contabilizado_desconocido'], []]);
    expect(day.porFamilia).toEqual([
      { clave: 'CP', nuestro: 12_000, webpay: 0, core: 12_000 },
      { clave: 'PC', nuestro: 30_000, webpay: 30_000, core: 0 },
      { clave: null, nuestro: 0, webpay: 0, core: 500 },
    ]);
    expect(day.porCodigoComercio).toEqual([
      { clave: '597055555536', nuestro: 30_000, webpay: 30_000, core: 0 },
      { clave: null, nuestro: 12_000, webpay: 0, core: 12_500 },
    ]);
  });

  it('never closes a day that is not over, nor one with a difference', () => {
    expect(closeRefusal('2026-11-28', '2026-11-29', { diferencias: 0 })).toBeNull();
    expect(closeRefusal('2026-11-29', '2026-11-29', { diferencias: 0 })).toBe('not_over');
    expect(closeRefusal('2026-11-28', '2026-11-29', { diferencias: 1 })).toBe('differences');
  });

  const states = <T extends Record<string, unknown>>(table: T) => fc.constantFrom(...(Object.keys(table) as (keyof T & string)[]));
  const anyStore = fc.record({ ordenCompra: fc.constant('PO1'), codigoComercio: fc.constantFrom('5970001', '5970002'), monto: fc.integer({ min: 1, max: 1e7 }), estado: states(WEBPAY_ATTEMPT_MOVES) as fc.Arbitrary<WebpayAttemptStatus> });
  const anyPosting = fc.record({
    clave: fc.string({ minLength: 1, maxLength: 8 }),
    tipo: fc.constantFrom('cuenta_vista' as const, 'abono_webpay' as const),
    estado: states(CORE_OPERATION_MOVES) as fc.Arbitrary<CoreOperationStatus>,
    monto: fc.integer({ min: 1, max: 1e7 }),
    montoCore: fc.option(fc.integer({ min: 0, max: 1e7 })),
    codigoComercio: fc.option(fc.constantFrom('5970001', '5970002')),
  });
  const anyPayment = fc.record({
    idTransaccion: fc.string({ minLength: 32, maxLength: 32 }),
    familia: fc.constantFrom('PC', 'CP', 'TC'),
    medioPago: fc.constantFrom('WEBPAY', 'CUENTA VISTA', null),
    estado: states(TRANSACTION_MOVES) as fc.Arbitrary<TransactionStatus>,
    montoPagado: fc.integer({ min: 0, max: 1e7 }),
    tiendas: fc.array(anyStore, { maxLength: 3 }),
    posteos: fc.array(anyPosting, { maxLength: 3 }),
  });

  it('keeps every peso: each side\'s totals per family and per commerce code add up to its lines', () => {
    fc.assert(
      fc.property(fc.array(anyPayment, { maxLength: 8 }), fc.array(fc.record({ clave: fc.string(), montoCore: fc.integer({ min: 1, max: 1e7 }) }), { maxLength: 2 }), (payments, unknown) => {
        const day = compareDay(payments, unknown);
        expect(day.lineas).toHaveLength(payments.length + unknown.length);
        const lines = (side: 'webpay' | 'core') => day.lineas.reduce((a, l) => a + (l[side]?.monto ?? 0), 0);
        for (const totals of [day.porFamilia, day.porCodigoComercio]) {
          expect(totals.reduce((a, t) => a + t.webpay, 0)).toBe(lines('webpay'));
          expect(totals.reduce((a, t) => a + t.core, 0)).toBe(lines('core'));
        }
        expect(day.porFamilia.reduce((a, t) => a + t.nuestro, 0)).toBe(day.lineas.reduce((a, l) => a + l.nuestro.monto, 0));
        // Differences come first, and their count is what blocks the close.
        const firstClean = day.lineas.findIndex((l) => l.causas.length === 0);
        if (firstClean >= 0) expect(day.lineas.slice(firstClean).every((l) => l.causas.length === 0)).toBe(true);
        expect(day.diferencias).toBe(day.lineas.filter((l) => l.causas.length > 0).length);
      }),
    );
  });

  it('finds no difference exactly when a paid payment\'s three sides hold the same money and nothing waits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e7 }), fc.integer({ min: 0, max: 1e7 }), fc.integer({ min: 0, max: 1e7 }), (ours, charged, core) => {
        const p = card({ montoPagado: ours, tiendas: [store({ monto: charged })], posteos: [posting({ monto: ours, montoCore: core })] });
        expect(causesOf(p).length === 0).toBe(ours === charged && ours === core);
      }),
    );
  });
});
