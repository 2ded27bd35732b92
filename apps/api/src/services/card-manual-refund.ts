import type { TransactionStatus } from '@pago/domain/payment-states';
import type { DbOrTx, Tx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { findAttempt, lockAttempt, moveAttempt, setAsideWithProposals, type WebpayAttemptRow } from '../repositories/webpay-attempt-repository';
import { lockRefundAwaitingWebpay, moveOperatorChange, recordChangeResult } from '../repositories/operator-change-repository';
import type { RefundDone } from './card-settlement';
import { heldOf, isApproved, type WebpayCall, type WebpayResult } from './webpay-client';

// A manual refund of a card payment (decision 036): only money Webpay took that was neither applied nor given back
// (set aside) is refunded from the console. A payment applied to instalments and booked in the core is not: the core
// owns that money, and undoing it is a reversal there, not a refund here.

/** Why an attempt cannot be refunded by hand, in the catalogue's words. */
export const REFUND_REFUSALS = {
  not_found: 'Cobro con tarjeta no encontrado',
  applied: 'El cobro se aplicó a las cuotas, cuyo dinero lleva el core: se revierte en el core, no con una devolución desde la consola',
  refunding: 'El cobro ya se está devolviendo',
  refunded: 'El cobro ya fue devuelto',
  open: 'Webpay aún no confirma este cobro: la conciliación lo resuelve',
  nothing_taken: 'Webpay no tomó dinero en este cobro',
  foreign: 'La respuesta de Webpay no corresponde a este cobro',
  no_status: 'Webpay no entrega el estado de este cobro: devuélvalo en el portal de Transbank',
} as const;
export type RefundRefusal = keyof typeof REFUND_REFUSALS;

/** What the attempt charged, over its stores. */
const chargedBy = (attempt: WebpayAttemptRow) => attempt.stores.reduce((sum, s) => sum + s.amount, 0);

/** The one rule of which attempts may be refunded by hand: set aside, and only those. */
export function refundRefusal(attempt: WebpayAttemptRow | null): RefundRefusal | null {
  if (!attempt) return 'not_found';
  switch (attempt.status) {
    case 'set_aside':
      return null;
    case 'committed':
      return 'applied';
    case 'refund_due':
      return 'refunding';
    case 'refunded':
      return 'refunded';
    case 'creating':
    case 'pending':
      return 'open';
    case 'cancelled':
      // A cancellation the reconciliation still looks at once more may turn out to have taken money.
      return attempt.nextCheckAt ? 'open' : 'nothing_taken';
    default:
      return 'nothing_taken';
  }
}

/** A set-aside attempt, checked against the rule: what the proposal records. */
export async function refundableAttempt(db: DbOrTx, buyOrder: string): Promise<{ ok: true; attempt: WebpayAttemptRow; amount: number } | { ok: false; reason: RefundRefusal }> {
  const attempt = await findAttempt(db, { buyOrder });
  const refusal = refundRefusal(attempt);
  if (refusal || !attempt) return { ok: false, reason: refusal ?? 'not_found' };
  return { ok: true, attempt, amount: chargedBy(attempt) };
}

/** What Webpay still holds of the attempt, asked before the approval's transaction opens. */
export type WebpayHolding = { ok: true; token: string; held: number; stores: number } | { ok: false; reason: RefundRefusal | 'unavailable' };

export async function askWebpay(db: DbOrTx, buyOrder: string, status: (token: string) => Promise<WebpayCall<WebpayResult>>): Promise<WebpayHolding> {
  const found = await refundableAttempt(db, buyOrder);
  if (!found.ok) return found;
  // Set aside is reached only from a form Webpay opened, which has its token.
  if (found.attempt.token === null) return { ok: false, reason: 'nothing_taken' };
  const asked = await status(found.attempt.token);
  if (!asked.ok) return { ok: false, reason: asked.kind === 'unavailable' ? 'unavailable' : 'no_status' };
  if (asked.data.buy_order !== buyOrder) return { ok: false, reason: 'foreign' };
  const approved = asked.data.details.filter(isApproved);
  return { ok: true, token: found.attempt.token, held: approved.reduce((sum, d) => sum + heldOf(d), 0), stores: approved.length };
}

/**
 * On approval, under the attempt's lock: hands a still set-aside attempt to the refund path (refund_due), which asks
 * Webpay again and refunds what it still holds, once (card-settlement.ts refundDue). Nothing held any more (refunded in
 * Transbank's portal meanwhile) ends the same way: the refund path finds nothing approved and records it refunded.
 */
export async function markForRefund(
  tx: Tx,
  buyOrder: string,
  holding: Extract<WebpayHolding, { ok: true }>,
  names: { operador: string; aprobadoPor: string; cambio: string; motivo: unknown },
  requestId: string,
): Promise<{ ok: true; token: string; idTransaccion: string; result: Record<string, unknown> } | { ok: false; reason: RefundRefusal }> {
  const locked = await lockAttempt(tx, { buyOrder });
  const refusal = refundRefusal(locked);
  if (refusal || !locked) return { ok: false, reason: refusal ?? 'not_found' };
  if (!(await moveAttempt(tx, { buyOrder }, 'set_aside', 'refund_due'))) return { ok: false, reason: 'refunding' };
  await appendAudit(tx, {
    kind: 'webpay.devolucion.manual',
    requestId,
    detail: { idTransaccion: locked.idTransaccion, buyOrder, enWebpay: holding.held, ...names },
  });
  return { ok: true, token: holding.token, idTransaccion: locked.idTransaccion, result: { enWebpay: holding.held, tiendas: holding.stores } };
}

/** What an approved manual refund's result says while Webpay has not answered it (the reconciliation asks again). */
export const REFUND_UNANSWERED = 'Webpay no respondió: la conciliación la reintenta';

/**
 * What Webpay did with a refund, recorded on the approved change that asked for it, in the transaction that moves the
 * attempt: whether Webpay answers at the approval or later (the reconciliation), the change's result and the trail say
 * the same. Refused: the change fails (aprobado → fallido) with Webpay's reason; the charge is set aside again.
 */
export async function recordManualRefundOutcome(tx: Tx, buyOrder: string, idTransaccion: string, done: RefundDone, requestId: string | null): Promise<void> {
  if (done.outcome === 'unanswered') return;
  const change = await lockRefundAwaitingWebpay(tx, buyOrder, REFUND_UNANSWERED);
  if (!change) return;
  const before = change.result ?? {};
  if (done.outcome !== 'refused') {
    await recordChangeResult(tx, change.id, { ...before, devolucion: 'Devuelto por Webpay', devuelto: done.amount });
    return;
  }
  const [failed] = await moveOperatorChange(tx, change.id, 'aprobado', 'fallido', { result: { ...before, devolucion: 'Rechazada por Webpay', motivoWebpay: done.motivo, devuelto: done.amount } });
  if (!failed) return;
  await appendAudit(tx, {
    kind: 'webpay.devolucion.manual.rechazada',
    requestId,
    detail: { idTransaccion, buyOrder, operador: change.makerName, aprobadoPor: change.checkerName, cambio: change.id, motivoWebpay: done.motivo, mensajeWebpay: done.mensajeWebpay, devuelto: done.amount },
  });
}

/** The set-aside card payments, newest first, and whether a refund of each already waits for approval. */
export async function setAsideAttempts(db: DbOrTx) {
  const rows = await setAsideWithProposals(db);
  return rows.map((r) => ({
    ordenCompra: r.attempt.buyOrder,
    idTransaccion: r.attempt.idTransaccion,
    monto: chargedBy(r.attempt),
    estadoPago: r.estadoPago as TransactionStatus,
    apartado: r.attempt.settledAt,
    devolucionPropuesta: r.propuesta !== null,
  }));
}
