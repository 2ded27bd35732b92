// A code a person reads from paper or a screen and types or scans: a voucher's verification code, a device's
// enrolment code. Zod-free: screens use it.

/** 20 characters of RFC 4648 base32: 100 random bits, never guessed; no 0, 1, 8 or 9 to misread. */
export const RANDOM_CODE = /^[A-Z2-7]{20}$/;
export const RANDOM_CODE_LENGTH = 20;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A new code from 20 random bytes (each gives 5 of its bits: no bias, as 256 is a multiple of 32). */
export function randomCodeFrom(random: Uint8Array): string {
  if (random.length < RANDOM_CODE_LENGTH) throw new RangeError('a code needs 20 random bytes');
  return Array.from(random.subarray(0, RANDOM_CODE_LENGTH), (byte) => ALPHABET[byte % 32]).join('');
}

/** 'ABCD-EFGH-IJKL-MNOP-QRST': as a person reads and types it. */
export const formatRandomCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

/** A code as typed or scanned: case, spaces and dashes do not matter; null when it cannot be one. */
export function readRandomCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  return RANDOM_CODE.test(code) ? code : null;
}
