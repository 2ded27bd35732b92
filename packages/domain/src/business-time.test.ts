import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { availabilityAt, BUSINESS_TIME_ZONE, businessNoon, businessToday, isUnavailableHour, santiagoParts, unavailableHours } from './business-time';
import { FAMILIES } from './families';

// 2026: summer time (UTC−3) ends at 00:00 on 5 April and starts at 00:00 on 6 September.
const summer = (local: string) => new Date(`${local}-03:00`);
const winter = (local: string) => new Date(`${local}-04:00`);

describe('santiagoParts and businessToday', () => {
  it('use America/Santiago', () => {
    expect(BUSINESS_TIME_ZONE).toBe('America/Santiago');
    expect(santiagoParts(new Date('2026-01-15T23:00:00Z'))).toEqual({ year: 2026, month: 1, day: 15, hour: 20, minute: 0 });
    expect(santiagoParts(new Date('2026-07-16T00:00:00Z'))).toEqual({ year: 2026, month: 7, day: 15, hour: 20, minute: 0 });
  });

  it('gives Santiago\'s date, not UTC\'s', () => {
    expect(businessToday(new Date('2026-11-21T02:30:00Z'))).toBe('20261120');
    expect(businessToday(new Date('2026-11-21T03:00:00Z'))).toBe('20261121');
  });

  it('follows the April change back to UTC−4', () => {
    expect(santiagoParts(new Date('2026-04-05T02:59:00Z'))).toMatchObject({ day: 4, hour: 23, minute: 59 });
    // The clock goes back: 03:00Z is 23:00 of 4 April again.
    expect(santiagoParts(new Date('2026-04-05T03:00:00Z'))).toMatchObject({ day: 4, hour: 23, minute: 0 });
    expect(businessToday(new Date('2026-04-05T03:30:00Z'))).toBe('20260404');
    expect(businessToday(new Date('2026-04-05T04:00:00Z'))).toBe('20260405');
  });

  it('follows the September change to UTC−3', () => {
    expect(santiagoParts(new Date('2026-09-06T03:59:00Z'))).toMatchObject({ day: 5, hour: 23, minute: 59 });
    expect(santiagoParts(new Date('2026-09-06T04:00:00Z'))).toMatchObject({ day: 6, hour: 1, minute: 0 });
  });

  it('rejects an invalid date', () => {
    expect(() => santiagoParts(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('isUnavailableHour', () => {
  it.each([
    [summer('2026-01-15T19:59'), false],
    [summer('2026-01-15T20:00'), true],
    [summer('2026-01-15T23:59'), true],
    [summer('2026-01-16T00:00'), true],
    [summer('2026-01-16T01:59'), true],
    [summer('2026-01-16T02:00'), false],
    [winter('2026-07-15T19:59'), false],
    [winter('2026-07-15T20:00'), true],
    [winter('2026-07-16T01:59'), true],
    [winter('2026-07-16T02:00'), false],
    [summer('2026-01-15T12:00'), false],
  ])('HI at %s closed: %s', (instant, closed) => {
    expect(isUnavailableHour('HI', instant)).toBe(closed);
  });

  it.each([
    [summer('2026-01-15T22:29'), false],
    [summer('2026-01-15T22:30'), true],
    [summer('2026-01-16T01:59'), true],
    [summer('2026-01-16T02:00'), false],
    [winter('2026-07-15T20:00'), false],
    [winter('2026-07-15T22:29'), false],
    [winter('2026-07-15T22:30'), true],
    [winter('2026-07-16T02:00'), false],
  ])('other families at %s closed: %s', (instant, closed) => {
    for (const family of ['PC', 'CP', 'TC', 'PM', 'AH'] as const) {
      expect(isUnavailableHour(family, instant)).toBe(closed);
    }
  });

  it('uses Santiago time, not a fixed offset, around the clock changes', () => {
    // 22:30 on 4 April 2026 is still summer time; the same UTC instant a day later is 21:30 in winter.
    expect(isUnavailableHour('PC', new Date('2026-04-05T01:30:00Z'))).toBe(true);
    expect(isUnavailableHour('PC', new Date('2026-04-06T01:30:00Z'))).toBe(false);
    // 01:30 on 5 April happens once, at 05:30Z; the clock does not reach 02:00 until 06:00Z.
    expect(isUnavailableHour('HI', new Date('2026-04-05T05:59:00Z'))).toBe(true);
    expect(isUnavailableHour('HI', new Date('2026-04-05T06:00:00Z'))).toBe(false);
    // On 6 September 00:00 jumps to 01:00; 02:00 comes at 05:00Z.
    expect(isUnavailableHour('HI', new Date('2026-09-06T04:59:00Z'))).toBe(true);
    expect(isUnavailableHour('HI', new Date('2026-09-06T05:00:00Z'))).toBe(false);
    expect(isUnavailableHour('TC', new Date('2026-09-07T01:29:00Z'))).toBe(false);
    expect(isUnavailableHour('TC', new Date('2026-09-07T01:30:00Z'))).toBe(true);
  });

  it('matches the spec windows for any instant and family', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(...FAMILIES),
        (instant, family) => {
          const { hour, minute } = santiagoParts(instant);
          const minutes = hour * 60 + minute;
          const [h, m] = unavailableHours(family).from.split(':').map(Number) as [number, number];
          expect(isUnavailableHour(family, instant)).toBe(minutes >= h * 60 + m || minutes < 120);
          // HI closes earlier, so whenever another family is closed, HI is too.
          if (isUnavailableHour('PC', instant)) expect(isUnavailableHour('HI', instant)).toBe(true);
        },
      ),
    );
  });

  it('gives every instant of a minute the parts of that instant, whatever was asked before', () => {
    const fresh = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
    const expected = (instant: Date) => {
      const parts = Object.fromEntries(fresh.formatToParts(instant).filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
      return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
    };
    fc.assert(
      fc.property(
        // From when Santiago kept its mean solar time (an offset with seconds) to long after today.
        fc.oneof(
          fc.date({ min: new Date('1890-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }),
          fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }),
        ),
        fc.integer({ min: -60_000, max: 60_000 }),
        (instant, shift) => {
          // Asked first for a nearby instant (the same minute or the next), then for this one.
          santiagoParts(new Date(instant.getTime() + shift));
          expect(santiagoParts(instant)).toEqual(expected(instant));
        },
      ),
    );
    // Mean solar time (UTC−4:42:45): one UTC minute holds two local minutes.
    santiagoParts(new Date('1900-06-01T12:00:50Z'));
    expect(santiagoParts(new Date('1900-06-01T12:00:10Z'))).toEqual(expected(new Date('1900-06-01T12:00:10Z')));
    // Around the 2026 changes of offset, minute by minute.
    for (const start of ['2026-04-05T02:50:00Z', '2026-09-06T03:50:00Z']) {
      for (let m = 0; m < 20; m++) {
        const instant = new Date(Date.parse(start) + m * 60_000 + 59_999);
        santiagoParts(new Date(instant.getTime() - 59_999));
        expect(santiagoParts(instant)).toEqual(expected(instant));
      }
    }
  });
});

describe('unavailableHours', () => {
  it('names the closing and opening times that isUnavailableHour uses', () => {
    expect(unavailableHours('HI')).toEqual({ from: '20:00', until: '02:00' });
    expect(unavailableHours('PC')).toEqual({ from: '22:30', until: '02:00' });
    for (const family of FAMILIES) {
      const { from } = unavailableHours(family);
      // 2030-06-12 is winter (UTC-4): the closing minute in Santiago is closed, the one before it is open.
      const [h, m] = from.split(':').map(Number) as [number, number];
      const closing = new Date(Date.UTC(2030, 5, 12, h + 4, m));
      expect(isUnavailableHour(family, closing)).toBe(true);
      expect(isUnavailableHour(family, new Date(closing.getTime() - 60_000))).toBe(false);
    }
  });
});

describe('businessNoon', () => {
  it('is on the same business day as the instant, with every family open', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true }), (instant) => {
        const noon = businessNoon(instant);
        expect(businessToday(noon)).toBe(businessToday(instant));
        for (const family of FAMILIES) expect(isUnavailableHour(family, noon)).toBe(false);
      }),
    );
  });
});

describe('availabilityAt', () => {
  it('gives every family, open or closed by the same hours as isUnavailableHour, with its closing and opening', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true }), (instant) => {
        const answer = availabilityAt(instant);
        expect(answer.map((a) => a.tipoFamiliaProducto)).toEqual([...FAMILIES]);
        for (const a of answer) {
          expect(a.disponible).toBe(!isUnavailableHour(a.tipoFamiliaProducto, instant));
          expect([a.cierre, a.apertura]).toEqual([unavailableHours(a.tipoFamiliaProducto).from, '02:00']);
        }
      }),
    );
  });
});
