import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asArray } from './as-array';

describe('asArray', () => {
  it('reads a missing field as no items', () => {
    expect(asArray(null)).toEqual([]);
    expect(asArray(undefined)).toEqual([]);
  });

  it('wraps a single object', () => {
    const pago = { idTransaccion: '1' };
    expect(asArray(pago)).toEqual([pago]);
    expect(asArray(pago)[0]).toBe(pago);
  });

  it('copies a list, so the caller may change it freely', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ numeroCuota: fc.string() })), (list) => {
        const items = asArray<{ numeroCuota: string }>(list);
        expect(items).toEqual(list);
        expect(items).not.toBe(list);
      }),
    );
  });

  it('keeps falsy single values', () => {
    expect(asArray(0)).toEqual([0]);
    expect(asArray('')).toEqual(['']);
    expect(asArray(false)).toEqual([false]);
  });
});
