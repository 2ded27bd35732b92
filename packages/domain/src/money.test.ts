import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clp, digitsOnly, formatClp, formatThousands, parseClpDigits } from './money';

const safeInteger = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const amount = fc.double({ min: -1e15, max: 1e15, noNaN: true });

// An oracle that does not share the hand-written grouping: en-US groups every thousand, es-CL does not for 4 digits.
function viaIntl(n: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(Math.abs(n)).replace(/,/g, '.');
}

describe('clp', () => {
  it('truncates toward zero', () => {
    expect(clp(1.9)).toBe(1);
    expect(clp(-1.9)).toBe(-1);
    expect(Object.is(clp(-0.5), 0)).toBe(true);
    expect(Object.is(clp(-0), 0)).toBe(true);
    expect(clp(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([Number.NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 2, -(2 ** 60)])('rejects %d', (n) => {
    expect(() => clp(n)).toThrow(RangeError);
  });

  it('always gives a safe integer no larger in magnitude than its input', () => {
    fc.assert(
      fc.property(amount, (n) => {
        const value = clp(n);
        expect(Number.isSafeInteger(value)).toBe(true);
        expect(Math.abs(value)).toBeLessThanOrEqual(Math.abs(n));
        expect(Math.abs(n) - Math.abs(value)).toBeLessThan(1);
      }),
    );
  });
});

describe('formatClp', () => {
  it.each([
    [0, '$0'],
    [5, '$5'],
    [999, '$999'],
    [1000, '$1.000'],
    [1234567, '$1.234.567'],
    [5_000_000, '$5.000.000'],
    [1234.99, '$1.234'],
    [-1234, '-$1.234'],
    [-0.4, '$0'],
  ])('%d → %s', (n, text) => {
    expect(formatClp(n)).toBe(text);
  });

  it('groups every three digits like a reference formatter', () => {
    fc.assert(
      fc.property(safeInteger, (n) => {
        const text = formatClp(n);
        expect(text).toBe(`${n < 0 ? '-' : ''}$${viaIntl(n)}`);
        expect(text).toMatch(/^-?\$\d{1,3}(\.\d{3})*$/);
      }),
    );
  });
});

describe('formatThousands', () => {
  it('has no currency sign', () => {
    expect(formatThousands(1234567)).toBe('1.234.567');
    expect(formatThousands(-1234.5)).toBe('-1.234');
    expect(formatThousands(12)).toBe('12');
  });

  it('is formatClp without the sign', () => {
    fc.assert(
      fc.property(amount, (n) => {
        expect(formatClp(n).replace('$', '')).toBe(formatThousands(n));
      }),
    );
  });
});

describe('digitsOnly and parseClpDigits', () => {
  it('strip everything but digits', () => {
    expect(digitsOnly('$1.234-5 abc')).toBe('12345');
    expect(digitsOnly('')).toBe('');
  });

  it.each([
    ['', null],
    ['abc', null],
    ['$', null],
    ['0', 0],
    ['007', 7],
    ['$1.234.567', 1234567],
    ['12a3', 123],
    ['99999999999999999999', null],
  ])('%j → %j', (text, value) => {
    expect(parseClpDigits(text)).toBe(value);
  });

  it('reads back what formatClp shows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(parseClpDigits(formatClp(n))).toBe(n);
        expect(parseClpDigits(formatThousands(n))).toBe(n);
      }),
    );
  });

  it('never throws on typed text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const value = parseClpDigits(text);
        if (value !== null) expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
      }),
    );
  });
});
