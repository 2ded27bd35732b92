import type { Family } from './families';

// The zod-free part of call-consultar-pago.ts, which re-exports all of it: the voucher sends call 7 and shows its
// answer with these, and downloads the validation library only to read the answer.

export const CONSULTAR_PAGO_PATH = '/prod/pago/consultar';
export const CONSULTAR_PAGO_REQUEST = 'consultarPagoRequest';
export const CONSULTAR_PAGO_RESPONSE = 'consultarPagoResponse';

export const MEDIO_PAGO_CUENTA_VISTA = 'CUENTA VISTA';
export const MEDIO_PAGO_WEBPAY = 'WEBPAY';

/** Spec §3 'Voucher payment': the description each family's payments carry. */
export const DESCRIPCION_PRODUCTO: Readonly<Record<Family, string>> = {
  AH: 'CUENTAS DE AHORRO',
  CP: 'CUOTAS DE PARTICIPACIÓN',
  TC: 'TARJETA DE CREDITO',
  PC: 'CREDITO DE CONSUMO',
  HI: 'CREDITO HIPOTECARIO',
  PM: 'CREDITO MYPE',
};

/** 'cam***@example.cl': only the first 3 characters of the local part are shown (spec §9). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '';
  const local = email.slice(0, at);
  return `${local.slice(0, 3)}${'*'.repeat(Math.max(3, local.length - 3))}${email.slice(at)}`;
}
