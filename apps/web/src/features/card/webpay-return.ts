import type { Family } from '@pago/domain/families';
import { paths } from '../../lib/paths';

/** What the payment host tells the browser when Webpay sends it back (apps/api card-payment-service). */
export const RETURN_ESTADOS = ['aprobado', 'parcial', 'rechazado', 'anulado', 'expirado', 'pendiente', 'reembolsado', 'reembolso', 'retenido', 'error'] as const;
export type ReturnEstado = (typeof RETURN_ESTADOS)[number];

/** A return the payment host could tie to a transaction. */
export interface WebpayReturn {
  estado: Exclude<ReturnEstado, 'error'>;
  idTransaccion: string;
}

/** idTransaccion as call 3 issues it: 128 random bits in lower-case hex. */
export const ID_TRANSACCION = /^[0-9a-f]{32}$/;

const isEstado = (value: string): value is ReturnEstado => (RETURN_ESTADOS as readonly string[]).includes(value);

/**
 * Specification §5 'Card provider return URL': /pagoexpress/webpayresult?estado=…&idTransaccion=… and nothing else.
 * null (the error page) for any other key, a repeated key, an unknown estado, an idTransaccion that is not 32
 * lower-case hex digits, and for estado=error, which the host sends when it could not tie the return to a payment.
 */
export function parseWebpayReturn(search: string): WebpayReturn | null {
  const params = new URLSearchParams(search);
  const keys = [...params.keys()];
  if (keys.length !== 2 || new Set(keys).size !== 2) return null;
  const estado = params.get('estado');
  const idTransaccion = params.get('idTransaccion');
  if (estado === null || idTransaccion === null) return null;
  if (!isEstado(estado) || estado === 'error' || !ID_TRANSACCION.test(idTransaccion)) return null;
  return { estado, idTransaccion };
}

/** The success voucher of a card payment: specification §4 'factor' query, with the family when it is known. */
export function cardVoucherPath(idTransaccion: string, family: Family | null): string {
  const query = new URLSearchParams();
  if (family) query.set('categoria', family);
  query.set('factor', 'WEBPAY');
  return `${paths.successVoucher(idTransaccion)}?${query.toString()}`;
}

/** /pagoexpress/webpayfinal: a partial approval (no estado), or a payment Webpay has not confirmed yet. */
export type FinalState = 'parcial' | 'pendiente';

export function webpayFinalPath(idTransaccion: string, state: FinalState): string {
  const query = new URLSearchParams({ idTransaccion });
  if (state === 'pendiente') query.set('estado', 'pendiente');
  return `${paths.webpayFinal}?${query.toString()}`;
}

/**
 * Why a card payment was not made: Webpay refused it, the member cancelled on its form, or the form's time ran out;
 * or Webpay charged the card and the charge could not be applied (paid meanwhile elsewhere): given back
 * ('reembolsado'), being given back ('reembolso'), or held until an operator gives it back ('retenido').
 */
export type NotPaid = 'rechazado' | 'anulado' | 'expirado' | 'reembolsado' | 'reembolso' | 'retenido';

/** The cancel voucher; a cancellation or a timeout says so in its query, so the screen words it as what it was. */
export function cancelVoucherPath(idTransaccion: string, why: NotPaid): string {
  const path = paths.cancelVoucher(idTransaccion);
  return why === 'rechazado' ? path : `${path}?estado=${why}`;
}

/** Where each return goes. Every navigation from here replaces the entry, so Back never re-enters Webpay. */
export function screenAfterReturn(result: WebpayReturn | null, family: Family | null): string {
  if (!result) return paths.error;
  switch (result.estado) {
    case 'aprobado':
      return cardVoucherPath(result.idTransaccion, family);
    case 'parcial':
      return webpayFinalPath(result.idTransaccion, 'parcial');
    case 'pendiente':
      return webpayFinalPath(result.idTransaccion, 'pendiente');
    case 'rechazado':
    case 'anulado':
    case 'expirado':
    case 'reembolsado':
    case 'reembolso':
    case 'retenido':
      return cancelVoucherPath(result.idTransaccion, result.estado);
  }
}

/** webpayfinal's own query: idTransaccion, and estado=pendiente for a payment still being confirmed. */
export function parseWebpayFinal(search: string): { idTransaccion: string; state: FinalState } | null {
  const params = new URLSearchParams(search);
  const keys = [...params.keys()];
  if (new Set(keys).size !== keys.length) return null;
  const idTransaccion = params.get('idTransaccion');
  if (idTransaccion === null || !ID_TRANSACCION.test(idTransaccion)) return null;
  const estado = params.get('estado');
  if (keys.length === 1) return { idTransaccion, state: 'parcial' };
  if (keys.length === 2 && estado === 'pendiente') return { idTransaccion, state: 'pendiente' };
  return null;
}
