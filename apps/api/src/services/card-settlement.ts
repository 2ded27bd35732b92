import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { Db, Tx } from '../db/client';
import { databaseFailure, loggableError } from '../loggable-error';
import { appendAudit } from '../repositories/audit-repository';
import { moveTransaction, type TransactionRow } from '../repositories/transaction-repository';
import { lockAttempt, markChecked, moveAttempt, type OpenedAttemptRow } from '../repositories/webpay-attempt-repository';
import { recordManualRefundOutcome } from './card-manual-refund';
import { applyPayment } from './payment-service';
import { heldOf, isApproved, refundRefusalText, type WebpayCall, type WebpayClient, type WebpayResult } from './webpay-client';

/**
 * What the member's browser is told when it comes back from Webpay: where to look next. 'anulado': the member
 * cancelled on the form; 'expirado': the form's time ran out (or it was left) with nothing charged. Webpay charged
 * what could not be applied (paid meanwhile elsewhere): 'reembolsado' given back, 'reembolso' being given back,
 * 'retenido' held because Webpay refused to give it back (an operator settles it).
 */
export type ReturnEstado = 'aprobado' | 'parcial' | 'rechazado' | 'anulado' | 'expirado' | 'pendiente' | 'reembolsado' | 'reembolso' | 'retenido' | 'error';
export interface ReturnOutcome {
  idTransaccion: string | null;
  estado: ReturnEstado;
}

/** What a settled attempt tells a browser that comes back again. */
export function estadoOf(attemptStatus: string, trxStatus: string): ReturnEstado {
  if (attemptStatus === 'committed') return 'aprobado';
  if (attemptStatus === 'cancelled') return 'anulado';
  if (attemptStatus === 'expired') return 'expirado';
  if (attemptStatus === 'pending' || attemptStatus === 'creating') return 'pendiente';
  if (attemptStatus === 'not_opened') return 'error';
  if (trxStatus === 'paid') return 'aprobado';
  // Charged but not applied: the member must read that the card was charged, and what became of the money.
  if (attemptStatus === 'refunded') return 'reembolsado';
  if (attemptStatus === 'refund_due') return 'reembolso';
  if (attemptStatus === 'set_aside') return 'retenido';
  return 'rechazado';
}

export type CardSettlement = ReturnType<typeof createCardSettlement>;

/** What a refund did: given back (`amount` pesos), refused by Webpay (its reason in Spanish, and its own words), or no answer. */
export type RefundDone =
  | { outcome: 'refunded' | 'unanswered'; amount: number }
  | { outcome: 'refused'; amount: number; motivo: string; mensajeWebpay: string };

/** What settling an answer decided: what the browser is told, and whether money must now go back to the card. */
export interface Settled {
  estado: ReturnEstado;
  refund: boolean;
}

/**
 * Applying what Webpay answered, shared by the browser's return and the reconciliation. Webpay is outside: every
 * answer is checked against what we sent, and the money it took is applied exactly once under the transaction's lock,
 * or marked to be given back (`refund_due`) and refunded by `refundDue` once that lock is released. No call to Webpay
 * is made while a database transaction is open.
 */
export function createCardSettlement(db: Db, clock: Clock, webpay: WebpayClient, log: FastifyBaseLogger) {
  // A line written while serving a request names it; the reconciliation's lines have no request.
  const logFor = (requestId: string | null) => (requestId ? log.child({ reqId: requestId }) : log);

  /**
   * Refunds what Webpay still holds of every approved store (its balance, when a part was refunded already): 'refunded'
   * when Webpay gave every one back, 'unanswered' when one got no answer (asked again later), 'refused' when Webpay
   * refused one (an operator must settle it), with Webpay's reason and what was given back.
   */
  async function refundAll(token: string, approved: WebpayResult['details'], requestId: string | null): Promise<RefundDone> {
    let outcome: RefundDone['outcome'] = 'refunded';
    let amount = 0;
    let refusal: string | null = null;
    for (const d of approved) {
      const held = heldOf(d);
      const res = await webpay.refund(token, d.buy_order, String(d.commerce_code), held);
      if (res.ok) {
        amount += held;
        continue;
      }
      if (res.kind === 'unavailable') {
        if (outcome === 'refunded') outcome = 'unanswered';
        logFor(requestId).warn({ buyOrder: d.buy_order, kind: res.kind }, 'webpay refund got no answer: the reconciliation will ask again');
      } else {
        outcome = 'refused';
        refusal = res.message;
        logFor(requestId).error({ buyOrder: d.buy_order, kind: res.kind }, 'webpay refund refused: set aside for the operator');
      }
    }
    return outcome === 'refused' ? { outcome, amount, motivo: refundRefusalText(refusal ?? ''), mensajeWebpay: refusal ?? '' } : { outcome, amount };
  }

  return {
    logFor,

    webpayStatus: (token: string) => webpay.status(token),

    /** Commit, or when Webpay says it is already committed, read the status instead. */
    async commitOrStatus(token: string): Promise<WebpayCall<WebpayResult>> {
      const committed = await webpay.commit(token);
      if (committed.ok || committed.kind === 'unavailable') return committed;
      return webpay.status(token);
    },

    /**
     * Applies what Webpay approved, or marks it to be given back when the transaction can no longer take it. Both
     * rows locked by the caller, and the attempt still pending.
     */
    async settle(tx: Tx, attempt: OpenedAttemptRow, trx: TransactionRow, result: WebpayResult, requestId: string | null): Promise<Settled> {
      const matches =
        result.buy_order === attempt.buyOrder &&
        result.details.length === attempt.stores.length &&
        result.details.every((d) => attempt.stores.some((s) => s.buyOrder === d.buy_order && s.amount === d.amount && s.commerceCode === String(d.commerce_code)));
      const approved = result.details.filter(isApproved);
      // Money taken that cannot be kept: refunded by refundDue once this transaction commits, and asked about again by
      // the reconciliation until Webpay has given it back or refused to (then an operator settles it).
      const giveBack = async (motivo: string, estado: ReturnEstado): Promise<Settled> => {
        if (!(await moveAttempt(tx, { token: attempt.token }, 'pending', 'refund_due'))) throw new Error('attempt not pending while settling');
        await appendAudit(tx, { kind: 'webpay.reembolso.pendiente', requestId, detail: { idTransaccion: trx.idTransaccion, buyOrder: attempt.buyOrder, motivo } });
        return { estado, refund: true };
      };

      if (!matches) {
        // Webpay's answer does not describe what we sent: take nothing, give back anything taken, and leave a trail.
        logFor(requestId).error({ idTransaccion: trx.idTransaccion }, 'webpay answer does not match the stores sent');
        await appendAudit(tx, { kind: 'webpay.discrepancia', requestId, detail: { idTransaccion: trx.idTransaccion, buyOrder: attempt.buyOrder } });
        return giveBack('discrepancia', 'error');
      }
      if (approved.length === 0) {
        if (!(await moveAttempt(tx, { token: attempt.token }, 'pending', 'rejected'))) throw new Error('attempt not pending while settling');
        await moveTransaction(tx, trx.idTransaccion, 'pending', 'rejected');
        return { estado: trx.status === 'paid' ? 'aprobado' : 'rechazado', refund: false };
      }
      // Already paid (another tab, another method) or closed: this money must go back.
      if (trx.status !== 'pending') return giveBack(trx.status, trx.status === 'paid' ? 'aprobado' : 'rechazado');
      const storeOf = (d: WebpayResult['details'][number]) => attempt.stores.find((s) => s.buyOrder === d.buy_order)!;
      const approvedProducts = new Set(approved.map((d) => storeOf(d).productId));
      const codes = Object.fromEntries(approved.map((d) => [storeOf(d).numeroProducto, d.authorization_code ?? '']));
      const card = result.card_detail?.card_number ?? '';
      // Each store line's credit goes to the core under the line's own buy order: one key per line, end to end.
      const coreKeys = new Map(approved.map((d) => [storeOf(d).productId, storeOf(d).buyOrder]));
      // A savepoint for faults only (a refusal writes nothing): a fault applying it must not lose the bookkeeping below.
      const applied = await tx
        .transaction((sp) =>
          applyPayment(sp, trx, { medioPago: 'WEBPAY', cuentaPago: card ? `**** ${card}` : 'Webpay', authorizationCodes: codes, productIds: approvedProducts, coreKeys }, clock()),
        )
        .catch((error: unknown) => {
          // The database gone decides nothing: the attempt stays as it was and is asked about again.
          if (databaseFailure(error) === 'unavailable') throw error;
          logFor(requestId).error({ idTransaccion: trx.idTransaccion, error: loggableError(error) }, 'card payment could not be applied: giving it back');
          return null;
        });
      if (!applied?.ok) {
        // Paid meanwhile (442), or a fault applying it: either way Webpay's money goes back, with the reason.
        await moveTransaction(tx, trx.idTransaccion, 'pending', 'rejected');
        return giveBack(applied ? applied.codigo : 'no aplicable', 'rechazado');
      }
      if (!(await moveAttempt(tx, { token: attempt.token }, 'pending', 'committed'))) throw new Error('attempt not pending while settling');
      await appendAudit(tx, { kind: 'pago.webpay', requestId, detail: { idTransaccion: trx.idTransaccion, tiendas: approved.length, de: result.details.length } });
      return { estado: approved.length === result.details.length ? 'aprobado' : 'parcial', refund: false };
    },

    /**
     * Gives back what Webpay still holds of an attempt marked `refund_due`: asks Webpay which stores are still approved,
     * refunds what each still holds, and records the outcome in a short transaction of its own: refunded, set aside for
     * the operator (Webpay refused, with its reason), or left due and asked again by the reconciliation (no answer).
     * Answers what happened, for whoever asked for the refund.
     */
    async refundDue(token: string, requestId: string | null): Promise<RefundDone | { outcome: 'not_due' }> {
      const asked = await webpay.status(token);
      const done: RefundDone = asked.ok ? await refundAll(token, asked.data.details.filter(isApproved), requestId) : { outcome: 'unanswered', amount: 0 };
      return db.transaction(async (tx): Promise<RefundDone | { outcome: 'not_due' }> => {
        const attempt = await lockAttempt(tx, { token });
        if (!attempt || attempt.status !== 'refund_due') return { outcome: 'not_due' };
        const detail = { idTransaccion: attempt.idTransaccion, buyOrder: attempt.buyOrder, monto: done.amount };
        if (done.outcome === 'refunded') {
          if (await moveAttempt(tx, { token }, 'refund_due', 'refunded')) {
            await appendAudit(tx, { kind: 'webpay.reembolso', requestId, detail });
            await recordManualRefundOutcome(tx, attempt.buyOrder, attempt.idTransaccion, done, requestId);
          }
        } else if (done.outcome === 'refused') {
          if (await moveAttempt(tx, { token }, 'refund_due', 'set_aside')) {
            await appendAudit(tx, { kind: 'webpay.apartado', requestId, detail: { ...detail, motivo: done.motivo, mensajeWebpay: done.mensajeWebpay } });
            await recordManualRefundOutcome(tx, attempt.buyOrder, attempt.idTransaccion, done, requestId);
          }
        } else await markChecked(tx, { token });
        return done;
      });
    },
  };
}
