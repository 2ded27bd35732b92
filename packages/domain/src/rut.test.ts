import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  RUT_INVALID_MESSAGE,
  canonicalRut,
  cleanRut,
  formatRut,
  formatRutInput,
  isValidRut,
  joinRut,
  maskRut,
  rutFieldError,
  splitRut,
} from './rut';
import { rutSchema } from './schemas/rut';

// Independent of rut.js, so the wrapper is checked against the modulo 11 rule itself.
function checkDigit(body: number): string {
  let sum = 0;
  let factor = 2;
  for (const digit of String(body).split('').reverse()) {
    sum += Number(digit) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 11 ? '0' : dv === 10 ? 'K' : String(dv);
}

const body = fc.integer({ min: 1, max: 99_999_999 });
const smallBody = fc.integer({ min: 1, max: 999_999 });
const DV_CHARS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'K'];

function withDots(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, '.');
}

describe('isValidRut', () => {
  it.each([
    '11.111.111-1',
    '11111111-1',
    '111111111',
    '19.191.919-K',
    '19.191.919-k',
    '19191919k',
    '1-9',
    '999.999-K',
    '999999-k',
    '12.345.678-5',
    ' 12.345.678-5 ',
    '012.345.678-5',
    '00001-9',
    '12 345 678 5',
  ])('accepts %j', (rut) => {
    expect(isValidRut(rut)).toBe(true);
  });

  it.each([
    '',
    '   ',
    '-',
    'K',
    '9',
    '0-0',
    '00000000-0',
    '12.345.678-4',
    '19.191.919-0',
    'abc',
    'rut 12.345.678-5',
    '12345678@mail.cl-5',
    '1K-9',
    '123.456.789-2',
    '1-9-',
  ])('rejects %j', (rut) => {
    expect(isValidRut(rut)).toBe(false);
  });

  it('rejects bodies longer than 8 digits even with the right check digit', () => {
    expect(isValidRut(`123456789-${checkDigit(123456789)}`)).toBe(false);
  });

  it('accepts every body with its check digit, with or without dots', () => {
    fc.assert(
      fc.property(body, (n) => {
        const dv = checkDigit(n);
        expect(isValidRut(`${n}-${dv}`)).toBe(true);
        expect(isValidRut(`${withDots(n)}-${dv}`)).toBe(true);
        expect(isValidRut(`${n}${dv.toLowerCase()}`)).toBe(true);
      }),
    );
  });

  it('always rejects a wrong check digit', () => {
    fc.assert(
      fc.property(body, fc.constantFrom(...DV_CHARS), (n, dv) => {
        fc.pre(dv !== checkDigit(n));
        expect(isValidRut(`${withDots(n)}-${dv}`)).toBe(false);
        expect(isValidRut(`${n}-${dv.toLowerCase()}`)).toBe(false);
      }),
    );
  });

  it('handles RUTs below 1.000.000', () => {
    fc.assert(
      fc.property(smallBody, (n) => {
        const rut = `${withDots(n)}-${checkDigit(n)}`;
        expect(isValidRut(rut)).toBe(true);
        expect(canonicalRut(rut)).toBe(`${n}-${checkDigit(n)}`);
        expect(formatRut(rut)).toBe(rut);
      }),
    );
  });

  it('treats K and k alike', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_000 }), (start) => {
        let n = start;
        while (checkDigit(n) !== 'K') n += 1;
        expect(isValidRut(`${withDots(n)}-K`)).toBe(true);
        expect(isValidRut(`${withDots(n)}-k`)).toBe(true);
        expect(canonicalRut(`${n}-k`)).toBe(`${n}-K`);
        expect(formatRut(`${n}k`)).toBe(`${withDots(n)}-K`);
      }),
    );
  });

  it('ignores leading zeros', () => {
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 5 }), (n, zeros) => {
        const rut = `${'0'.repeat(zeros)}${n}-${checkDigit(n)}`;
        expect(isValidRut(rut)).toBe(true);
        expect(canonicalRut(rut)).toBe(`${n}-${checkDigit(n)}`);
        expect(formatRut(rut)).toBe(`${withDots(n)}-${checkDigit(n)}`);
      }),
    );
  });
});

describe('cleanRut', () => {
  it('keeps only digits and an upper-case K, without leading zeros', () => {
    expect(cleanRut(' 012.345.678-k ')).toBe('12345678K');
    expect(cleanRut('11.111.111-1')).toBe('111111111');
    expect(cleanRut('')).toBe('');
    expect(cleanRut('.0-0')).toBe('');
  });

  it('never leaves a separator or a leading zero', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(cleanRut(s)).toMatch(/^([1-9K][0-9K]*)?$/);
      }),
    );
  });
});

describe('formatRut', () => {
  it('formats with dots and a dash', () => {
    expect(formatRut('123456785')).toBe('12.345.678-5');
    expect(formatRut('19191919k')).toBe('19.191.919-K');
    expect(formatRut('1-9')).toBe('1-9');
    expect(formatRut('0012.345.678-5')).toBe('12.345.678-5');
  });

  it('returns empty and single-character input as they are', () => {
    expect(formatRut('')).toBe('');
    expect(formatRut('   ')).toBe('');
    expect(formatRut('1')).toBe('1');
    expect(formatRut('k')).toBe('K');
  });

  it('round-trips with cleanRut', () => {
    fc.assert(
      fc.property(body, (n) => {
        const canonical = `${n}-${checkDigit(n)}`;
        const formatted = formatRut(canonical);
        expect(formatted).toBe(`${withDots(n)}-${checkDigit(n)}`);
        expect(cleanRut(formatted)).toBe(cleanRut(canonical));
        expect(formatRut(formatted)).toBe(formatted);
        expect(canonicalRut(formatted)).toBe(canonical);
      }),
    );
  });
});

describe('formatRutInput', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['12', '1-2'],
    ['1234', '123-4'],
    ['12345', '1.234-5'],
    ['123456785', '12.345.678-5'],
    ['12.345.678-50', '12.345.678-5'],
    ['1234567850', '12.345.678-5'],
    ['19191919k', '19.191.919-K'],
    ['1k2', '1-2'],
    ['k', 'K'],
    ['0', ''],
    ['abc', ''],
  ])('%j shows %j', (raw, shown) => {
    expect(formatRutInput(raw)).toBe(shown);
  });

  it('is stable when the field re-formats what it shows, and never exceeds 12 characters', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const shown = formatRutInput(raw);
        expect(shown.length).toBeLessThanOrEqual(12);
        expect(formatRutInput(shown)).toBe(shown);
      }),
    );
  });

  it('shows a typed valid RUT ready to submit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_000, max: 99_999_999 }), (n) => {
        const shown = formatRutInput(`${n}${checkDigit(n)}`);
        expect(shown).toBe(`${withDots(n)}-${checkDigit(n)}`);
        expect(rutFieldError(shown)).toBeNull();
      }),
    );
  });
});

describe('rutFieldError', () => {
  it('has no error for an empty field', () => {
    expect(rutFieldError('')).toBeNull();
  });

  it('accepts valid RUTs of 8 to 12 characters', () => {
    expect(rutFieldError('12.345.678-5')).toBeNull();
    expect(rutFieldError('11.111.111-1')).toBeNull();
    expect(rutFieldError('19.191.919-K')).toBeNull();
    expect(rutFieldError('10.000-5')).toBeNull();
    expect(rutFieldError('999.999-K')).toBeNull();
  });

  it('rejects invalid RUTs of 8 to 12 characters', () => {
    expect(rutFieldError('12.345.678-4')).toBe(RUT_INVALID_MESSAGE);
    expect(rutFieldError('10.000-4')).toBe(RUT_INVALID_MESSAGE);
  });

  it('rejects any other non-empty length, valid or not', () => {
    expect(rutFieldError('1-9')).toBe('Rut inválido');
    expect(rutFieldError('1.234-3')).toBe('Rut inválido');
    expect(rutFieldError('1')).toBe('Rut inválido');
    expect(rutFieldError('.')).toBe('Rut inválido');
  });

  it('matches the spec rule for every formatted RUT', () => {
    fc.assert(
      fc.property(body, fc.constantFrom(...DV_CHARS), (n, dv) => {
        const shown = formatRut(`${n}${dv}`);
        const ok = shown.length >= 8 && shown.length <= 12 && dv === checkDigit(n);
        expect(rutFieldError(shown)).toBe(ok ? null : 'Rut inválido');
      }),
    );
  });
});

describe('canonicalRut', () => {
  it('gives the undotted, dashed, upper-case form or null', () => {
    expect(canonicalRut('11.111.111-1')).toBe('11111111-1');
    expect(canonicalRut('19.191.919-k')).toBe('19191919-K');
    expect(canonicalRut('12.345.678-4')).toBeNull();
    expect(canonicalRut('')).toBeNull();
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), body.map((n) => `${withDots(n)}-${checkDigit(n)}`)), (s) => {
        const once = canonicalRut(s);
        if (once !== null) {
          expect(once).toMatch(/^[1-9]\d{0,7}-[\dK]$/);
          expect(canonicalRut(once)).toBe(once);
        }
      }),
    );
  });
});

describe('splitRut and joinRut', () => {
  it('split a RUT into body and check digit', () => {
    expect(splitRut('11111111-1')).toEqual({ numero: '11111111', dv: '1' });
    expect(splitRut('19.191.919-k')).toEqual({ numero: '19191919', dv: 'K' });
    expect(() => splitRut('12.345.678-4')).toThrow(RangeError);
  });

  it('join body and check digit, or null', () => {
    expect(joinRut('11111111', '1')).toBe('11111111-1');
    expect(joinRut('19.191.919', 'k')).toBe('19191919-K');
    expect(joinRut('11111111', '2')).toBeNull();
    expect(joinRut('1234', '5-6')).toBeNull();
    expect(joinRut('', '9')).toBeNull();
  });

  it('are inverse of each other', () => {
    fc.assert(
      fc.property(body, (n) => {
        const canonical = `${n}-${checkDigit(n)}`;
        const { numero, dv } = splitRut(canonical);
        expect(joinRut(numero, dv)).toBe(canonical);
      }),
    );
  });
});

describe('maskRut', () => {
  it('keeps only the last 3 digits of the body and the check digit', () => {
    expect(maskRut('11111111-1')).toBe('*****111-1');
    expect(maskRut('12.345.678-5')).toBe('*****678-5');
    expect(maskRut('999.999-k')).toBe('***999-K');
    expect(maskRut('1-9')).toBe('*-9');
    expect(maskRut('12-3')).toBe('*2-3');
    expect(maskRut('')).toBe('');
  });

  it('never shows a whole body', () => {
    fc.assert(
      fc.property(body, (n) => {
        const masked = maskRut(`${n}-${checkDigit(n)}`);
        expect(masked).toContain('*');
        expect(masked.replace(/\D/g, '').length).toBeLessThan(String(n).length + 1);
        expect(masked).not.toContain(String(n));
      }),
    );
  });
});

describe('rutSchema', () => {
  it('turns any valid spelling into the canonical form', () => {
    expect(rutSchema.parse('11.111.111-1')).toBe('11111111-1');
    expect(rutSchema.parse(' 019.191.919-k ')).toBe('19191919-K');
  });

  it.each(['', 'abc', '12.345.678-4', 12345678, null, 'x'.repeat(100)])('rejects %j with "Rut inválido"', (value) => {
    const result = rutSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Rut inválido']);
  });
});
