// A voucher's verification code: printed on the voucher and its PDF, it opens a public page that proves the payment
// to whoever the member shows it to. Zod-free: the voucher screen and the verification page use it.

/** 20 characters of RFC 4648 base32: 100 random bits, never guessed; no 0, 1, 8 or 9 to misread. */
export const VERIFICATION_CODE = /^[A-Z2-7]{20}$/;
export const VERIFICATION_CODE_LENGTH = 20;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A new code from 20 random bytes (each gives 5 of its bits: no bias, as 256 is a multiple of 32). */
export function verificationCodeFrom(random: Uint8Array): string {
  if (random.length < VERIFICATION_CODE_LENGTH) throw new RangeError('a verification code needs 20 random bytes');
  return Array.from(random.subarray(0, VERIFICATION_CODE_LENGTH), (byte) => ALPHABET[byte % 32]).join('');
}

/** 'ABCD-EFGH-IJKL-MNOP-QRST': as a person reads and types it. */
export const formatVerificationCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

/** A code as typed or scanned: case, spaces and dashes do not matter; null when it cannot be one. */
export function readVerificationCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  return VERIFICATION_CODE.test(code) ? code : null;
}

/** The public page of a voucher's proof. */
export const verificationPath = (code: string) => `/comprobante/verificar/${code}`;

/** The API call behind that page. */
export const VERIFICAR_COMPROBANTE_PATH = '/api/comprobante/verificar/:codigo';
export const verificarComprobanteUrl = (code: string) => `/api/comprobante/verificar/${encodeURIComponent(code)}`;
