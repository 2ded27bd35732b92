import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The challenge parameters altcha-lib signs; the signature covers every one of them. */
export interface SignedParameters {
  algorithm: string;
  nonce: string;
  salt: string;
  cost: number;
  keyLength: number;
  keyPrefix: string;
  keySignature?: string | undefined;
  expiresAt?: number | undefined;
}

export interface CaptchaPayload {
  challenge: { parameters: SignedParameters; signature: string };
  solution: { counter: number; derivedKey: string };
}

export type CaptchaCheck = 'verified' | 'expired' | 'invalid';

const MAX_COUNTER = 0xffff_ffff;
const LOWER_HEX = /^(?:[0-9a-f]{2})+$/;

/**
 * altcha-lib's `verifySolution` for the challenges this service issues (always with a key signature), on
 * node:crypto's synchronous HMAC instead of WebCrypto: the library imports a key and signs through a promise job twice
 * per check, which was a tenth of the API's CPU on the product list. Same steps, same verdicts: captcha-check.test.ts
 * holds it to the library's answer on valid, tampered, replayed and expired payloads.
 */
export function checkCaptcha(payload: CaptchaPayload, secrets: { signature: string; keySignature: string }, nowMs = Date.now()): CaptchaCheck {
  const { parameters, signature } = payload.challenge;
  if (parameters.expiresAt && parameters.expiresAt < nowMs / 1000) return 'expired';
  if (!signature) return 'invalid';
  if (!sameText(signature, hmacHex(secrets.signature, JSON.stringify(sortKeys(parameters))))) return 'invalid';
  const { derivedKey, counter } = payload.solution;
  if (!LOWER_HEX.test(derivedKey) || !Number.isInteger(counter) || counter < 0 || counter > MAX_COUNTER) return 'invalid';
  // Every challenge issued here carries a key signature, and it is covered by the signature checked above.
  if (!parameters.keySignature) return 'invalid';
  return sameText(parameters.keySignature, hmacHex(secrets.keySignature, Buffer.from(derivedKey, 'hex'))) ? 'verified' : 'invalid';
}

/** What issueChallenge needs: the same secrets checkCaptcha is given, and the work asked of the browser. */
export interface IssueOptions {
  secrets: { signature: string; keySignature: string };
  /** The counter the browser must reach; the solver tries 0, 1, 2, … until it finds it. */
  counter: number;
  /** Hash iterations per attempt (altcha-lib's `cost` of the SHA algorithms). */
  cost: number;
  expiresAt: Date;
  /** 16 bytes of nonce then 16 of salt; tests pass their own to compare with altcha-lib byte for byte. */
  entropy?: Buffer;
}

const ISSUED_ALGORITHM = 'SHA-256';
const KEY_LENGTH = 32;
const KEY_PREFIX_LENGTH = KEY_LENGTH / 2;

/**
 * altcha-lib's `createChallenge` in deterministic mode with a key signature, for SHA-256, on node:crypto's
 * synchronous hash and HMAC: the library signs through WebCrypto (a key import and a promise job per HMAC, twice per
 * challenge), which showed in the CPU profile of every listing. captcha-check.test.ts holds the result to the
 * library's, field by field and byte for byte, and has the library solve and verify it.
 */
export function issueChallenge(options: IssueOptions): { parameters: SignedParameters; signature: string } {
  const { counter, cost } = options;
  if (!Number.isInteger(counter) || counter < 0 || counter > MAX_COUNTER) throw new RangeError(`counter must be an integer from 0 to ${MAX_COUNTER}`);
  if (!Number.isInteger(cost) || cost < 1) throw new RangeError('cost must be a positive integer');
  const expiresAt = Math.floor(options.expiresAt.getTime() / 1000);
  if (!(expiresAt > 0)) throw new RangeError('expiresAt must be a valid date after 1970');
  const entropy = options.entropy ?? randomBytes(32);
  if (entropy.length !== 32) throw new RangeError('entropy must be 32 bytes');
  const nonce = entropy.subarray(0, 16);
  const salt = entropy.subarray(16, 32);
  // The password of attempt n is the nonce followed by n as a big-endian uint32; each iteration hashes the last.
  const first = Buffer.alloc(salt.length + nonce.length + 4);
  salt.copy(first, 0);
  nonce.copy(first, salt.length);
  first.writeUInt32BE(counter, salt.length + nonce.length);
  let derivedKey = createHash('sha256').update(first).digest();
  for (let i = 1; i < cost; i++) derivedKey = createHash('sha256').update(derivedKey).digest();
  derivedKey = derivedKey.subarray(0, KEY_LENGTH);
  // Sorted as altcha-lib sorts them before signing: the signature covers this exact text.
  const parameters = sortKeys({
    algorithm: ISSUED_ALGORITHM,
    cost,
    expiresAt,
    keyLength: KEY_LENGTH,
    keyPrefix: derivedKey.subarray(0, KEY_PREFIX_LENGTH).toString('hex'),
    keySignature: hmacHex(options.secrets.keySignature, derivedKey),
    nonce: nonce.toString('hex'),
    salt: salt.toString('hex'),
  }) as SignedParameters;
  return { parameters, signature: hmacHex(options.secrets.signature, JSON.stringify(parameters)) };
}

function hmacHex(secret: string, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The canonical form altcha-lib signs: keys sorted at every level, undefined members left out. */
function sortKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .flatMap((key) => (record[key] === undefined ? [] : [[key, sortKeys(record[key])]])),
  );
}
