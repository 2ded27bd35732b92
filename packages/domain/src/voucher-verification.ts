// A voucher's verification code: printed on the voucher and its PDF, it opens a public page that proves the payment
// to whoever the member shows it to. Zod-free: the voucher screen and the verification page use it.

export {
  RANDOM_CODE as VERIFICATION_CODE,
  RANDOM_CODE_LENGTH as VERIFICATION_CODE_LENGTH,
  randomCodeFrom as verificationCodeFrom,
  formatRandomCode as formatVerificationCode,
  readRandomCode as readVerificationCode,
} from './random-code';

/** The public page of a voucher's proof. */
export const verificationPath = (code: string) => `/comprobante/verificar/${code}`;

/** The API call behind that page. */
export const VERIFICAR_COMPROBANTE_PATH = '/api/comprobante/verificar/:codigo';
export const verificarComprobanteUrl = (code: string) => `/api/comprobante/verificar/${encodeURIComponent(code)}`;
