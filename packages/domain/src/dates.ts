// No zod here: the screens use these dates (schemas/wire.ts holds wireDateSchema).
const MS_PER_DAY = 86_400_000;
const WIRE_DATE = /^(\d{4})(\d{2})(\d{2})$/;

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    // Four digits is all the wire format can carry.
    year >= 1 &&
    year <= 9999 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

function parseWire(wire: string): CalendarDate | null {
  const match = WIRE_DATE.exec(wire);
  if (!match) return null;
  const [, y = '', m = '', d = ''] = match;
  const date = { year: Number(y), month: Number(m), day: Number(d) };
  return isCalendarDate(date.year, date.month, date.day) ? date : null;
}

export function isWireDate(s: unknown): s is string {
  return typeof s === 'string' && parseWire(s) !== null;
}

/** Throws RangeError for anything but a real calendar date in yyyymmdd. */
export function parseWireDate(wire: string): CalendarDate {
  const date = parseWire(wire);
  if (date === null) throw new RangeError(`Not a wire date: ${JSON.stringify(wire)}`);
  return date;
}

export function toWireDate(year: number, month: number, day: number): string {
  if (!isCalendarDate(year, month, day)) throw new RangeError(`Not a calendar date: ${year}-${month}-${day}`);
  return `${String(year).padStart(4, '0')}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
}

/** yyyymmdd as ISO 8601 (yyyy-mm-dd), the database's and the admin API's day. */
export function wireToIso(wire: string): string {
  const { year, month, day } = parseWireDate(wire);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function wireToScreen(wire: string): string {
  const { year, month, day } = parseWireDate(wire);
  return `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/${String(year).padStart(4, '0')}`;
}

/**
 * A calendar date (not checked: callers pass a parsed one) as days since 1970-01-01, counted as UTC midnights: no time
 * zone or DST can add or lose a day. Date.UTC maps the years 0..99 to 1900..1999, so those go through setUTCFullYear.
 */
export function dayNumberOf(year: number, month: number, day: number): number {
  if (year >= 100) return Date.UTC(year, month - 1, day) / MS_PER_DAY;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime() / MS_PER_DAY;
}

/** A yyyymmdd date as days since 1970-01-01 (see `dayNumberOf`); throws RangeError for anything but a real date. */
export function toDayNumber(wire: string): number {
  const { year, month, day } = parseWireDate(wire);
  return dayNumberOf(year, month, day);
}

function fromDayNumber(dayNumber: number): string {
  const date = new Date(dayNumber * MS_PER_DAY);
  return toWireDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

export function addDaysWire(wire: string, days: number): string {
  if (!Number.isInteger(days)) throw new RangeError(`Not a whole number of days: ${days}`);
  return fromDayNumber(toDayNumber(wire) + days);
}

/** to − from, in whole calendar days (negative when to is earlier). */
export function daysBetweenWire(from: string, to: string): number {
  return toDayNumber(to) - toDayNumber(from);
}
