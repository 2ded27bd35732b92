// Call 7, the payment's query (spec §7.7): its path, names and the voucher's values. Its schemas are in
// schemas/call-consultar-pago.ts, which only reading the answer needs.

export const CONSULTAR_PAGO_PATH = '/prod/pago/consultar';
export const CONSULTAR_PAGO_REQUEST = 'consultarPagoRequest';
export const CONSULTAR_PAGO_RESPONSE = 'consultarPagoResponse';

export const MEDIO_PAGO_CUENTA_VISTA = 'CUENTA VISTA';
export const MEDIO_PAGO_WEBPAY = 'WEBPAY';


/** 'cam***@example.cl': only the first 3 characters of the local part are shown (spec §9). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '';
  const local = email.slice(0, at);
  return `${local.slice(0, 3)}${'*'.repeat(Math.max(3, local.length - 3))}${email.slice(at)}`;
}
