/** Fineract's error shape (ApiGlobalErrorResponse / ApiParameterError) and its request-body reading rules. */

export interface ParameterError {
  developerMessage: string;
  defaultUserMessage: string;
  userMessageGlobalisationCode: string;
  parameterName: string;
  value: unknown;
  args: { value: unknown }[];
}

export interface ErrorBody {
  developerMessage: string;
  /** A string in Fineract (ApiGlobalErrorResponse keeps it as one). */
  httpStatusCode: string;
  defaultUserMessage: string;
  userMessageGlobalisationCode: string;
  errors: ParameterError[];
}

/** An error Fineract answers with its own shape and status. */
export class FineractError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.defaultUserMessage);
  }
}

export function parameterError(code: string, message: string, parameterName: string, value: unknown = null, args: unknown[] = []): ParameterError {
  return { developerMessage: message, defaultUserMessage: message, userMessageGlobalisationCode: code, parameterName, value, args: args.map((a) => ({ value: a })) };
}

const globalError = (status: number, code: string, developerMessage: string, defaultUserMessage: string, errors: ParameterError[]) =>
  new FineractError(status, { developerMessage, httpStatusCode: String(status), defaultUserMessage, userMessageGlobalisationCode: code, errors });

/** 400: PlatformApiDataValidationException and UnsupportedParameterException. */
export const validationError = (errors: ParameterError[]) =>
  globalError(400, 'validation.msg.validation.errors.exist', 'The request was invalid. This typically will happen due to validation errors which are provided.', 'Validation errors exist.', errors);

/** 403: a domain rule (e.g. insufficient balance); the reason sits in errors[0] with parameterName "id". */
export const domainRuleViolation = (code: string, message: string, args: unknown[]) =>
  globalError(403, 'validation.msg.domain.rule.violation', 'Request was understood but caused a domain rule violation.', 'Errors contain reason for domain rule violation.', [
    parameterError(code, message, 'id', null, args),
  ]);

/** 404: a resource id or external id that does not exist. */
export const notFound = (code: string, message: string, id: unknown) =>
  globalError(404, 'error.msg.resource.not.found', 'The requested resource is not available.', 'The requested resource is not available.', [parameterError(code, message, 'id', null, [id])]);

/** 503: PlatformServiceUnavailableException, e.g. undoing a transaction that belongs to a transfer. */
export const serviceUnavailable = (code: string, message: string, id: unknown) => {
  const msg = 'The server is currently unable to handle the request , please try after some time.';
  return globalError(503, 'error.msg.platform.service.unavailable', msg, msg, [parameterError(code, message, 'id', null, [id])]);
};

/** 409: an optimistic-lock failure left after executeCommand's retries (OptimisticLockExceptionMapper, ApiGlobalErrorResponse.conflict). */
export const conflict = () => {
  const msg = 'The server is currently unable to handle the request due to concurrent modification  on unknown [unknown], please try again';
  return globalError(409, 'error.msg.platform.service.unknown.conflict', msg, msg, []);
};

export const serverError = (message: string) => {
  const msg = 'An unexpected error occured on the platform server.';
  return globalError(500, 'error.msg.platform.server.side.error', msg, msg, [parameterError('error.msg.platform.server.side.error', message, 'id')]);
};

// ---- Dates: Java DateTimeFormatter patterns as clients send them ("dd MMMM yyyy", "yyyy-MM-dd", "dd/MM/yyyy").

const MONTHS: Record<string, string[]> = {
  en: ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
};

/** A date string in `pattern` (Java letters) → wire yyyymmdd, or null when it does not match strictly. */
export function parseJavaDate(text: string, pattern: string, locale: string): string | null {
  const months = MONTHS[locale.slice(0, 2).toLowerCase()] ?? MONTHS.en!;
  const tokens = pattern.match(/yyyy|MMMM|MMM|MM|M|dd|d|'[^']*'|./g) ?? [];
  let rest = text;
  let year = NaN;
  let month = NaN;
  let day = NaN;
  for (const token of tokens) {
    let m: RegExpMatchArray | null = null;
    if (token === 'yyyy') m = rest.match(/^\d{4}/);
    else if (token === 'MM' || token === 'dd') m = rest.match(/^\d{2}/);
    else if (token === 'M' || token === 'd') m = rest.match(/^\d{1,2}/);
    else if (token === 'MMMM' || token === 'MMM') {
      const lower = rest.toLowerCase();
      const index = months.findIndex((name) => lower.startsWith(token === 'MMMM' ? name : name.slice(0, 3)));
      if (index < 0) return null;
      month = index + 1;
      rest = rest.slice(token === 'MMMM' ? months[index]!.length : 3);
      continue;
    } else {
      const literal = token.startsWith("'") ? token.slice(1, -1) : token;
      if (!rest.startsWith(literal)) return null;
      rest = rest.slice(literal.length);
      continue;
    }
    if (!m) return null;
    const value = Number(m[0]);
    if (token === 'yyyy') year = value;
    else if (token.startsWith('M')) month = value;
    else day = value;
    rest = rest.slice(m[0].length);
  }
  if (rest !== '' || !Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
}

/** Wire yyyymmdd → the [y, m, d] array Fineract's GETs answer. */
export const dateArray = (wire: string): [number, number, number] => [Number(wire.slice(0, 4)), Number(wire.slice(4, 6)), Number(wire.slice(6, 8))];

// ---- Bodies

export type Json = Record<string, unknown>;

export interface BodyRules {
  resource: string;
  allowed: string[];
  dates?: string[];
  /** Required, greater than zero (or zero or more with `zeroAllowed`). */
  amounts?: { name: string; zeroAllowed?: boolean }[];
  required?: string[];
  positiveInts?: string[];
  maxLengths?: Record<string, number>;
}

export interface ReadBody {
  json: Json;
  dates: Record<string, string>;
  amounts: Record<string, number>;
}

/** Reads a write's body as Fineract's validators do: unsupported keys first, then each field, all errors at once. */
const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * JsonParserHelper.localeFromString: `language[_COUNTRY[_variant]]`, the language one of Java's ISO 639 codes and
 * the country one of its ISO 3166 codes, else 400 `validation.msg.invalid.locale.format`.
 */
export function invalidLocale(locale: string): ParameterError | null {
  const [language = '', country = ''] = locale.split('_');
  const knownLanguage = /^[a-z]{2}$/i.test(language) && languages.of(language.toLowerCase()) !== undefined;
  if (!knownLanguage) return parameterError('validation.msg.invalid.locale.format', `The parameter \`locale\` has an invalid language value ${language} .`, 'locale', language);
  const knownCountry = country === '' || (/^[A-Z]{2}$/.test(country) && regions.of(country) !== undefined);
  if (!knownCountry) return parameterError('validation.msg.invalid.locale.format', `The parameter \`locale\` has an invalid country value ${country} .`, 'locale', country);
  return null;
}

/**
 * What Fineract books for an amount in CLP (0 decimal places, in multiples of 1): Money's constructor rounds it to the
 * nearest multiple, a half going up (Money.roundToMultiplesOf), then to the currency's scale. No validator looks at
 * the decimals (the "greater than zero" rule reads what was sent): 1000.5 books 1001, and 0.4 books 0.
 */
export function clpAmount(sent: number): number {
  if (sent <= 0 || Number.isInteger(sent)) return sent;
  return Math.floor(sent) + (sent - Math.floor(sent) >= 0.5 ? 1 : 0);
}

export function readBody(raw: unknown, rules: BodyRules): ReadBody {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw validationError([parameterError('error.msg.invalid.request.body', 'Request body is empty or not a JSON object.', 'body')]);
  }
  const json = raw as Json;
  const unsupported = Object.keys(json).filter((k) => !rules.allowed.includes(k));
  if (unsupported.length > 0) {
    throw validationError(unsupported.map((name) => parameterError('error.msg.parameter.unsupported', `The parameter ${name} is not supported.`, name, name)));
  }
  const errors: ParameterError[] = [];
  const dates: Record<string, string> = {};
  const amounts: Record<string, number> = {};
  const blank = (name: string) =>
    errors.push(parameterError(`validation.msg.${rules.resource}.${name}.cannot.be.blank`, `The parameter \`${name}\` is mandatory.`, name));
  for (const name of rules.dates ?? []) {
    const value = json[name];
    if (value === undefined || value === null || value === '') {
      blank(name);
      continue;
    }
    const dateFormat = typeof json.dateFormat === 'string' ? json.dateFormat : '';
    const locale = typeof json.locale === 'string' ? json.locale : '';
    if (!dateFormat) {
      errors.push(parameterError('validation.msg.missing.dateFormat.parameter', `The parameter \`${name}\` requires a \`dateFormat\` parameter to be passed with it.`, name));
    }
    if (!locale) {
      errors.push(parameterError('validation.msg.missing.locale.parameter', `The parameter \`${name}\` requires a \`locale\` parameter to be passed with it.`, name));
    }
    if (!dateFormat || !locale) continue;
    const localeError = invalidLocale(locale);
    if (localeError) {
      errors.push(localeError);
      continue;
    }
    const wire = typeof value === 'string' ? parseJavaDate(value, dateFormat, locale) : null;
    if (!wire) {
      errors.push(
        parameterError('validation.msg.invalid.dateFormat.format', `The parameter \`${name}\` is invalid based on the dateFormat: \`${dateFormat}\` and locale: \`${locale}\` provided:`, name, String(value), [
          value,
          dateFormat,
        ]),
      );
      continue;
    }
    dates[name] = wire;
  }
  for (const { name, zeroAllowed } of rules.amounts ?? []) {
    const value = json[name];
    if (value === undefined || value === null || value === '') {
      blank(name);
      continue;
    }
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isFinite(number)) {
      errors.push(parameterError('validation.msg.invalid.decimal.format', `The parameter \`${name}\` has value: ${String(value)} which is invalid decimal value.`, name, String(value)));
      continue;
    }
    if (zeroAllowed ? number < 0 : number <= 0) {
      const code = zeroAllowed ? 'not.zero.or.greater' : 'not.greater.than.zero';
      errors.push(parameterError(`validation.msg.${rules.resource}.${name}.${code}`, `The parameter \`${name}\` must be greater than ${zeroAllowed ? 'or equal to ' : ''}0.`, name, null, [number, 0]));
      continue;
    }
    amounts[name] = clpAmount(number);
  }
  for (const name of rules.required ?? []) {
    const value = json[name];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) blank(name);
  }
  for (const name of rules.positiveInts ?? []) {
    const value = json[name];
    if (value === undefined || value === null) continue;
    const n = typeof value === 'string' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) {
      errors.push(parameterError(`validation.msg.${rules.resource}.${name}.not.greater.than.zero`, `The parameter \`${name}\` must be greater than 0.`, name, null, [value, 0]));
    }
  }
  for (const [name, max] of Object.entries(rules.maxLengths ?? {})) {
    const value = json[name];
    if (typeof value === 'string' && value.trim().length > max) {
      errors.push(parameterError(`validation.msg.${rules.resource}.${name}.exceeds.max.length`, `The parameter \`${name}\` exceeds max length of ${max}.`, name, value, [max, value]));
    }
  }
  if (errors.length > 0) throw validationError(errors);
  return { json, dates, amounts };
}

export const optionalString = (json: Json, name: string): string | undefined => (typeof json[name] === 'string' ? (json[name] as string) : undefined);
export const optionalInt = (json: Json, name: string): number | undefined => {
  const v = json[name];
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
};
