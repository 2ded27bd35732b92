import { CONSULTAR_PAGO_PATH, CONSULTAR_PAGO_REQUEST } from '@pago/domain/call-consultar-pago';
import type { ConsultarPagoRequest } from '@pago/domain/schemas/call-consultar-pago';
import { CANAL } from '@pago/domain/channel';
import { matchRoutes } from 'react-router';
import { postJson } from '../../../lib/api-client';
import { useAppStore } from '../../../lib/app-store';
import { ROUTES } from '../../../lib/paths';

/*
 * Part of the home's first load (the route table imports it), so it only sends: the screen's chunk reads the answer.
 */

export function consultarPagoRequest(rut: string, token: string, idTransaccion: string): ConsultarPagoRequest {
  return { [CONSULTAR_PAGO_REQUEST]: { userId: rut, canalLlamada: CANAL, idTransaccion, token } };
}

/** Call 7 sent ahead of the voucher screen, until the screen takes it. */
let started: { key: string; answer: Promise<unknown> } | null = null;

const requestKey = (request: ConsultarPagoRequest) => JSON.stringify(request);

/**
 * Sends call 7 for the voucher at the browser's address as soon as the route is known, while the voucher screen's
 * code downloads, rather than once it has arrived: on a slow connection the voucher appears a round trip and a
 * download sooner. Asked with the same session and under the same conditions as the screen asks it
 * (SuccessVoucherPage), which takes this answer instead of sending its own.
 */
export function startVoucherCall(): void {
  // The same matching as the route table's, so the transaction number is decoded as the screen will read it.
  const [match] = matchRoutes([{ path: ROUTES.successVoucher.path, caseSensitive: true }], window.location) ?? [];
  const idtrx = match?.params['idtrx'] ?? '';
  const state = useAppStore.getState();
  const { rut, token } = state.paidVouchers[idtrx] ?? state.customer;
  if (token === '' || idtrx === '') return;
  const request = consultarPagoRequest(rut, token, idtrx);
  const answer = postJson(CONSULTAR_PAGO_PATH, request);
  // A failure is the screen's to show when it takes the answer, not an unhandled rejection before.
  answer.catch(() => {});
  started = { key: requestKey(request), answer };
}

/**
 * The answer (unread, as postJson gives it) of call 7 sent ahead for exactly this request: member, session and
 * transaction. Handed over once; one sent for another request is dropped unread.
 */
export function takeStartedVoucherCall(request: ConsultarPagoRequest): Promise<unknown> | null {
  const ahead = started;
  started = null;
  return ahead && ahead.key === requestKey(request) ? ahead.answer : null;
}
