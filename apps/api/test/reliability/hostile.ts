import fc from 'fast-check';

// What a hostile or broken client sends: the building blocks of the fuzz suite.

export const SQL_PAYLOADS = [
  "' OR '1'='1",
  "'; DROP TABLE members; --",
  "1; update accounts set saldo = 999999999; --",
  "' UNION SELECT rut, password_hash FROM members --",
  '$1',
  "\\'; select pg_sleep(5); --",
  'E\'\\x00\'',
];

export const SCRIPT_PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{constructor.constructor("alert(1)")()}}',
  '${7*7}',
  '%s%s%s%n',
];

export const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202eRUT',
  '\ufeff',
  'Ñandú 💸 ✓',
  '\r\nSet-Cookie: x=1',
  '../../../../etc/passwd',
  '%00',
  '%zz',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '0x1F',
  '11.111.111-1',
  '11111111-K',
  ' 11111111-1 ',
  '0000000000000000000011111111-1',
  'camila.rojas@example.cl',
  'a'.repeat(129),
  'x'.repeat(5_000),
];

/** Strings: arbitrary unicode, payloads, odd spellings, and now and then one longer than any body limit. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40, unit: 'grapheme' }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20, unit: 'binary' }) },
  { weight: 3, arbitrary: fc.constantFrom(...SQL_PAYLOADS, ...SCRIPT_PAYLOADS, ...ODD_TEXT) },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 80_000 }).map((n) => 'Z'.repeat(n)) },
);

/** Amounts and counts a hostile client would try: negative, fractional, huge, not finite. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 0.5, -0.01, 1.5, 999.999, 1e21, 2 ** 31, 2 ** 31 - 1, 2 ** 53 + 1, Number.MAX_VALUE, 9_999_999_999, 10_000_000_000, -(2 ** 31)),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileString, hostileNumber), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(hostileString, hostileNumber), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({}, [], [[[]]], { __proto__: { admin: true } }, JSON.parse('{"__proto__":{"x":1}}')) },
);

const REMOVE = Symbol('remove');

/** Every path to a value inside a JSON body, the root included. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setAt(root: unknown, path: (string | number)[], replace: (old: unknown) => unknown | typeof REMOVE): unknown {
  if (path.length === 0) {
    const next = replace(root);
    return next === REMOVE ? undefined : next;
  }
  const copy = clone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  const next = replace(node[last]);
  if (next === REMOVE) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = next;
  return copy;
}

/** Another value of a different JSON type than the one it replaces. */
function otherType(old: unknown): fc.Arbitrary<unknown> {
  if (typeof old === 'string') return fc.oneof(hostileNumber, fc.constant(null), fc.constant([old]), fc.constant({ value: old }), fc.boolean());
  if (typeof old === 'number') return fc.oneof(fc.constant(String(old)), fc.constant(null), fc.constant([old]), fc.boolean(), hostileNumber);
  if (Array.isArray(old)) return fc.oneof(fc.constant(old[0] ?? null), fc.constant({}), fc.constant('[]'), fc.constant(Array.from({ length: 500 }, () => old[0] ?? 1)));
  if (old && typeof old === 'object') return fc.oneof(fc.constant([old]), fc.constant('{}'), fc.constant(null), fc.constant(Object.values(old)));
  return hostileValue;
}

/**
 * Schema-aware mutations of a well-formed body: one field removed, replaced by a hostile value or a value of another
 * type, an extra field added, or the body wrapped or left as it is (well-formed inputs reach the business rules).
 */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return valid.chain((body) => {
    const all = paths(body);
    const pick = fc.integer({ min: 0, max: all.length - 1 }).map((i) => all[i]!);
    return fc.oneof(
      { weight: 2, arbitrary: fc.constant(body) },
      { weight: 3, arbitrary: fc.tuple(pick, hostileValue).map(([path, v]) => setAt(body, path, () => v)) },
      { weight: 2, arbitrary: pick.map((path) => setAt(body, path, () => REMOVE)) },
      {
        weight: 2,
        arbitrary: pick.chain((path) => {
          const old = path.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)?.[k], body);
          return otherType(old).map((v) => setAt(body, path, () => v));
        }),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(pick, fc.string({ minLength: 1, maxLength: 12 }), hostileValue).map(([path, key, v]) =>
          setAt(body, path, (old) => (old && typeof old === 'object' && !Array.isArray(old) ? { ...(old as object), [key]: v } : old)),
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom<unknown>([body], { wrapped: body }, null) },
    );
  });
}

export const CONTENT_TYPES = [
  'application/json',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/octet-stream',
  'application/merge-patch+json',
  'application/json, text/plain',
  ';;;',
  '',
];

/** Raw bodies: broken JSON, non-objects, prototype pollution, deep nesting, duplicate keys, byte-order marks. */
export function rawBody(valid: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(valid) ?? 'null';
  return fc.oneof(
    fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((n) => text.slice(0, n)),
    fc.constantFrom(
      'null',
      '[]',
      '[1,2,3]',
      '0',
      '-1',
      '"x"',
      'true',
      '{',
      '}',
      '{"a":}',
      "{'single':'quotes'}",
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
      `\ufeff${text}`,
      text.replace(/^\{/, '{"dup":1,"dup":2,'),
      `${text}${text}`,
      `${text}\u0000`,
      new URLSearchParams({ body: text }).toString(),
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      `{"x":"${'y'.repeat(70_000)}"}`,
    ),
    fc.string({ maxLength: 200, unit: 'binary' }),
    fc.json({ maxDepth: 3 }),
  );
}

/** Printable header values only: anything else is refused by the HTTP layer before reaching the app. */
const headerText = fc.oneof(
  fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom(
    'Bearer ',
    'Bearer',
    'Basic',
    'Basic !!!',
    'Bearer null',
    `Bearer ${'A'.repeat(8_000)}`,
    'Basic ' + Buffer.from('11111111-1:').toString('base64'),
    'eyJhbGciOiJub25lIn0.eyJhZG1pbiI6dHJ1ZX0.',
    Buffer.from('{"challenge":{},"solution":{}}').toString('base64'),
    Buffer.from('{"challenge":{"parameters":{"algorithm":"SHA-256","nonce":"00","salt":"00","cost":1,"keyLength":32,"keyPrefix":"00"},"signature":"00"},"solution":{"counter":1,"derivedKey":"00"}}').toString('base64'),
    "' OR 1=1 --",
  ),
);

/** Odd headers: spoofed addresses, unknown encodings, garbage credentials, huge cookies. */
export const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    authorization: headerText,
    'x-forwarded-for': fc.constantFrom('1.2.3.4', '::1', 'not-an-ip', '1.2.3.4, 5.6.7.8', '', '999.999.999.999'),
    'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x-unknown'),
    accept: fc.constantFrom('*/*', 'text/html', 'application/xml', '', 'application/json;q=0'),
    'accept-language': fc.constantFrom('es-CL', '*', 'zz'),
    cookie: fc.constantFrom('a=1', `session=${'c'.repeat(4_000)}`, '=;=;'),
    'x-request-id': headerText,
    origin: fc.constantFrom('https://evil.example', 'null'),
  },
  { requiredKeys: [] },
);

/** A hostile string that still fits a field of `min` to `max` characters, so it gets past the schema. */
export function fits(max: number, min = 1): fc.Arbitrary<string> {
  const payloads = [...SQL_PAYLOADS, ...SCRIPT_PAYLOADS, ...ODD_TEXT].filter((s) => s.length >= min && s.length <= max);
  return fc
    .oneof(
      fc.constantFrom(...payloads),
      fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }),
      fc.string({ minLength: min, maxLength: max, unit: 'binary' }),
    )
    .filter((s) => s.length >= min && s.length <= max);
}
