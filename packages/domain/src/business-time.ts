import { toWireDate } from './dates';
import { FAMILIES, FAMILY, type ClockTime, type Family } from './families';

/** Opening hours, "today" and overdue days are the cooperative's, wherever the server or the member is. */
export const BUSINESS_TIME_ZONE = 'America/Santiago';

export interface BusinessParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

// Chile moves its clocks on dates the government has changed several times, so the offset comes from the
// runtime's time zone database, never from a constant.
const formatter = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  // h23 rather than hour12: false, which some engines render as '24' at midnight.
  hourCycle: 'h23',
});

// The last answer, by UTC minute: since 1946 Santiago's offset has been a whole number of hours, so every instant of
// one UTC minute has the same parts (before 1910 its mean solar time was not: those instants are always formatted).
// Formatting costs about 20 µs, and every listing and selection asks for the current minute.
let lastMinute = Number.NaN;
let lastParts: BusinessParts | undefined;

export function santiagoParts(instant: Date): BusinessParts {
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Invalid Date');
  const minuteNumber = Math.floor(ms / 60_000);
  if (minuteNumber === lastMinute && lastParts) return lastParts;
  const parts = formatParts(instant);
  if (ms >= 0) {
    lastParts = parts;
    lastMinute = minuteNumber;
  }
  return parts;
}

function formatParts(instant: Date): BusinessParts {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year, month, day, hour, minute } = parts;
  if (year === undefined || month === undefined || day === undefined || hour === undefined || minute === undefined) {
    throw new Error('The runtime did not format a date in America/Santiago');
  }
  return Object.freeze({ year, month, day, hour, minute });
}

export function businessToday(instant: Date): string {
  const { year, month, day } = santiagoParts(instant);
  return toWireDate(year, month, day);
}

/** The business day of `instant` at 16:00 UTC (12:00 or 13:00 in Santiago): inside every family's opening hours. */
export function businessNoon(instant: Date = new Date()): Date {
  const today = businessToday(instant);
  return new Date(`${today.slice(0, 4)}-${today.slice(4, 6)}-${today.slice(6, 8)}T16:00:00Z`);
}

// Spec §9: every family opens at 02:00; when it closes is in the family table.
const OPENS_AT = '02:00';
const minuteOf = (time: ClockTime) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const OPENING_MINUTE = minuteOf(OPENS_AT);

/** The family's closed hours as a member reads them: '20:00' and '02:00' for the mortgage. */
export function unavailableHours(family: Family): { from: ClockTime; until: ClockTime } {
  return { from: FAMILY[family].closesAt, until: OPENS_AT };
}

/** Spec §9: closed from the family's closing time (inclusive) until 02:00 (exclusive), Santiago time. */
export function isUnavailableHour(family: Family, instant: Date): boolean {
  const { hour, minute } = santiagoParts(instant);
  const minuteOfDay = hour * 60 + minute;
  return minuteOfDay >= minuteOf(FAMILY[family].closesAt) || minuteOfDay < OPENING_MINUTE;
}

/** Where the browser learns the families' availability (beyond the spec; public, no session). */
export const AVAILABILITY_PATH = '/api/disponibilidad';

/** A family's availability by the server's business clock, as the browser learns it (AVAILABILITY_PATH). */
export interface FamilyAvailability {
  tipoFamiliaProducto: Family;
  /** Payable now. */
  disponible: boolean;
  /** 'HH:MM', Santiago: when it closes each day, and when it opens again. */
  cierre: string;
  apertura: string;
}

/** Every family's availability at `instant`: the one answer step 1, step 2 and step 3 read, never the phone's clock. */
export function availabilityAt(instant: Date): FamilyAvailability[] {
  return FAMILIES.map((family) => {
    const { from, until } = unavailableHours(family);
    return { tipoFamiliaProducto: family, disponible: !isUnavailableHour(family, instant), cierre: from, apertura: until };
  });
}
