import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDaysWire,
  daysBetweenWire,
  isWireDate,
  parseWireDate,
  toWireDate,
  wireToIso,
  wireToScreen,
} from './dates';
import { wireDateSchema } from './schemas/wire';

const calendarDate = fc
  .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9700-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => toWireDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()));
// About 274 years either way: with dates from 1000 to 9700 the results stay within years 1 to 9999.
const days = fc.integer({ min: -100_000, max: 100_000 });

describe('isWireDate and wireDateSchema', () => {
  it.each(['20261121', '20240229', '20000229', '99991231', '00010101'])('accept %s', (s) => {
    expect(isWireDate(s)).toBe(true);
    expect(wireDateSchema.safeParse(s).success).toBe(true);
  });

  it.each(['', '2026112', '202611210', '2026-11-21', '20230229', '19000229', '20261301', '20260100', '20260431', '00000101', ' 20261121', 20261121])(
    'reject %j',
    (s) => {
      expect(isWireDate(s)).toBe(false);
      expect(wireDateSchema.safeParse(s).success).toBe(false);
    },
  );

  it('agree with the calendar of Date for any eight digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{3}[01]\d[0-3]\d$/), (s) => {
        const [y, m, d] = [Number(s.slice(0, 4)), Number(s.slice(4, 6)), Number(s.slice(6))];
        const date = new Date(Date.UTC(y, m - 1, d));
        const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
        expect(isWireDate(s)).toBe(real);
      }),
    );
  });
});

describe('wireToScreen, wireToIso and toWireDate', () => {
  it('convert between the wire, the screen and ISO', () => {
    expect(wireToIso('20261121')).toBe('2026-11-21');
    expect(wireToIso('00990105')).toBe('0099-01-05');
    expect(wireToScreen('20261121')).toBe('21/11/2026');
    expect(wireToScreen('20260105')).toBe('05/01/2026');
    expect(toWireDate(2026, 11, 21)).toBe('20261121');
    expect(toWireDate(2026, 1, 5)).toBe('20260105');
    expect(parseWireDate('20261121')).toEqual({ year: 2026, month: 11, day: 21 });
  });

  it('refuse what is not a date', () => {
    expect(() => wireToScreen('20261131')).toThrow(RangeError);
    expect(() => wireToIso('2026113')).toThrow(RangeError);
    expect(() => toWireDate(2026, 2, 29)).toThrow(RangeError);
    expect(() => toWireDate(2026, 1.5, 1)).toThrow(RangeError);
    expect(() => toWireDate(10000, 1, 1)).toThrow(RangeError);
  });

  it('keep day, month and year in place', () => {
    fc.assert(
      fc.property(calendarDate, (wire) => {
        const [d, m, y] = wireToScreen(wire).split('/');
        expect(`${y}${m}${d}`).toBe(wire);
      }),
    );
  });
});

describe('addDaysWire and daysBetweenWire', () => {
  it('cross months, years and leap days', () => {
    expect(addDaysWire('20261231', 1)).toBe('20270101');
    expect(addDaysWire('20240228', 1)).toBe('20240229');
    expect(addDaysWire('20240301', -1)).toBe('20240229');
    expect(addDaysWire('20230301', -1)).toBe('20230228');
    expect(addDaysWire('20261121', 0)).toBe('20261121');
    expect(daysBetweenWire('20260101', '20261231')).toBe(364);
    expect(daysBetweenWire('20240101', '20250101')).toBe(366);
    expect(daysBetweenWire('20261121', '20261101')).toBe(-20);
  });

  it('are not shifted by the Santiago clock changes', () => {
    expect(daysBetweenWire('20260404', '20260406')).toBe(2);
    expect(daysBetweenWire('20260905', '20260907')).toBe(2);
  });

  it('refuse fractional days and results beyond year 9999', () => {
    expect(() => addDaysWire('20261121', 0.5)).toThrow(RangeError);
    expect(() => addDaysWire('99991231', 1)).toThrow(RangeError);
  });

  it('are inverse of each other', () => {
    fc.assert(
      fc.property(calendarDate, days, (wire, n) => {
        const later = addDaysWire(wire, n);
        expect(isWireDate(later)).toBe(true);
        expect(daysBetweenWire(wire, later)).toBe(n);
        expect(addDaysWire(later, -n)).toBe(wire);
      }),
    );
  });

  it('add up', () => {
    fc.assert(
      fc.property(calendarDate, calendarDate, calendarDate, (a, b, c) => {
        expect(daysBetweenWire(a, b) + daysBetweenWire(b, c)).toBe(daysBetweenWire(a, c));
        expect(daysBetweenWire(a, b) + daysBetweenWire(b, a)).toBe(0);
      }),
    );
  });
});
