import { createHmac, timingSafeEqual } from 'node:crypto';

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
