import { validate, format } from 'rut.js';

export const RUT_INVALID_MESSAGE = 'Rut inválido';

// A RUT body has at most 8 digits (the home field's 12 characters, '12.345.678-5'); capping it also keeps
// rut.js's parseInt far from the float precision limit.
const MAX_BODY_DIGITS = 8;
// The home field shows at most 12 characters: 8 digits of body, the check digit, two dots and the dash.
const MAX_SIGNIFICANT_CHARS = MAX_BODY_DIGITS + 1;
const FIELD_MIN_LENGTH = 8;
const FIELD_MAX_LENGTH = 12;

// Spellings a person would type or paste. Anything else (letters, '@', ...) is refused even though cleaning
// would leave digits behind: rut.js issue #15 lets an e-mail address pass as a RUT after clean().
const RUT_SPELLING = /^[\d.\-\s]*[\dkK]$/;

export function cleanRut(input: string): string {
  // rut.js's clean() only strips zeros at the very start of the raw string, so ' 012' would keep its zero.
  return input.trim().replace(/[^0-9kK]/g, '').replace(/^0+/, '').toUpperCase();
}

export function isValidRut(input: string): boolean {
  const trimmed = input.trim();
  if (!RUT_SPELLING.test(trimmed)) return false;
  const cleaned = cleanRut(trimmed);
  if (cleaned.length < 2 || cleaned.length > MAX_SIGNIFICANT_CHARS) return false;
  // Validating the cleaned form sidesteps rut.js's rejection of leading zeros and of surrounding spaces.
  return validate(cleaned);
}

export function formatRut(input: string): string {
  const cleaned = cleanRut(input);
  // rut.js turns '' into '-' and '1' into '-1'; while typing, a single character is not yet a body and a dv.
  if (cleaned.length <= 1) return cleaned;
  return format(cleaned);
}

export function formatRutInput(raw: string): string {
  const cleaned = cleanRut(raw);
  // K can only be the check digit: one typed earlier would end up inside the body once the member types on.
  const body = cleaned.slice(0, -1).replace(/K/g, '');
  const significant = (body + cleaned.slice(-1)).slice(0, MAX_SIGNIFICANT_CHARS);
  return formatRut(significant);
}

export function rutFieldError(fieldValue: string): typeof RUT_INVALID_MESSAGE | null {
  if (fieldValue === '') return null;
  // The rule is about what the member sees, so measure the formatted spelling even if handed raw digits.
  const length = formatRut(fieldValue).length;
  if (length < FIELD_MIN_LENGTH || length > FIELD_MAX_LENGTH) return RUT_INVALID_MESSAGE;
  return isValidRut(fieldValue) ? null : RUT_INVALID_MESSAGE;
}

export function canonicalRut(input: string): string | null {
  if (!isValidRut(input)) return null;
  const cleaned = cleanRut(input);
  return `${cleaned.slice(0, -1)}-${cleaned.slice(-1)}`;
}

/** Throws RangeError for an invalid RUT: callers split only what they have already validated. */
export function splitRut(canonical: string): { numero: string; dv: string } {
  const rut = canonicalRut(canonical);
  if (rut === null) throw new RangeError('splitRut needs a valid RUT');
  const [numero = '', dv = ''] = rut.split('-');
  return { numero, dv };
}

export function joinRut(numero: string, dv: string): string | null {
  // Without the guard, numero '1234' and dv '5-6' would join into something that looks valid.
  if (!/^\s*[\d.]+\s*$/.test(numero) || !/^\s*[\dkK]\s*$/.test(dv)) return null;
  return canonicalRut(`${numero.trim()}-${dv.trim()}`);
}

export function maskRut(input: string): string {
  const cleaned = cleanRut(input);
  if (cleaned.length === 0) return '';
  if (cleaned.length === 1) return '*';
  const body = cleaned.slice(0, -1);
  // Short bodies keep at least one digit hidden, so a log line never carries a whole RUT.
  const visible = Math.min(3, body.length - 1);
  return `${'*'.repeat(body.length - visible)}${body.slice(body.length - visible)}-${cleaned.slice(-1)}`;
}
