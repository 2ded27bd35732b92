import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { Tx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { closeIfPending, type TransactionRow } from '../repositories/transaction-repository';
import { finishAttempt, markChecked, type WebpayAttemptRow } from '../repositories/webpay-attempt-repository';
import { applyPayment, PaymentRefused } from './payment-service';
import { isApproved, type WebpayCall, type WebpayClient, type WebpayResult } from './webpay-client';

/** What the member's browser is told when it comes back from Webpay: where to look next. */
export type ReturnEstado = 'aprobado' | 'parcial' | 'rechazado' | 'anulado' | 'pendiente' | 'error';
export interface ReturnOutcome {
  idTransaccion: string | null;
  estado: ReturnEstado;
}

/** What a settled attempt tells a browser that comes back again. */
export function estadoOf(attemptStatus: string, trxStatus: string): ReturnEstado {
  if (attemptStatus === 'committed') return 'aprobado';
  if (attemptStatus === 'cancelled' || attemptStatus === 'expired') return 'anulado';
  if (attemptStatus === 'pending') return 'pendiente';
  return trxStatus === 'paid' ? 'aprobado' : 'rechazado';
}

export type CardSettlement = ReturnType<typeof createCardSettlement>;

/**
 * Applying what Webpay answered, shared by the browser's return and the reconciliation. Webpay is outside: every
 * answer is checked against what we sent, and the money it took is applied exactly once under the transaction's lock,
 * or refunded when it can no longer be applied.
 */
export function createCardSettlement(clock: Clock, webpay: WebpayClient, log: FastifyBaseLogger) {
  // A line written while serving a request names it; the reconciliation's lines have no request.
  const logFor = (requestId: string | null) => (requestId ? log.child({ reqId: requestId }) : log);

  /** Refunds every approved store; false when one got no answer from Webpay (to be asked again later). */
  async function refundAll(attempt: WebpayAttemptRow, approved: WebpayResult['details'], requestId: string | null): Promise<boolean> {
    let answered = true;
    for (const d of approved) {
      const res = await webpay.refund(attempt.token, d.buy_order, String(d.commerce_code), d.amount);
      if (res.ok) continue;
      if (res.kind === 'unavailable') {
        answered = false;
        logFor(requestId).warn({ buyOrder: d.buy_order, kind: res.kind }, 'webpay refund got no answer: the reconciliation will ask again');
      } else logFor(requestId).error({ buyOrder: d.buy_order, kind: res.kind }, 'webpay refund refused: needs manual follow-up');
    }
    return answered;
  }

  return {
    logFor,

    /** Commit, or when Webpay says it is already committed, read the status instead. */
    async commitOrStatus(token: string): Promise<WebpayCall<WebpayResult>> {
      const committed = await webpay.commit(token);
      if (committed.ok || committed.kind === 'unavailable') return committed;
      return webpay.status(token);
    },

    /** Applies what Webpay approved, refunding it instead when the transaction can no longer take it. Both rows locked. */
    async settle(tx: Tx, attempt: WebpayAttemptRow, trx: TransactionRow, result: WebpayResult, requestId: string | null): Promise<ReturnEstado> {
      const matches =
        result.buy_order === attempt.buyOrder &&
        result.details.length === attempt.stores.length &&
        result.details.every((d) => attempt.stores.some((s) => s.buyOrder === d.buy_order && s.amount === d.amount && s.commerceCode === String(d.commerce_code)));
      const approved = result.details.filter(isApproved);
      // Refunds and closes the attempt; when Webpay gives no answer, leaves it pending (checked now) so that the
      // reconciliation asks again later and refunds whatever is still approved: money taken is never kept unapplied.
      const giveBack = async () => {
        if (await refundAll(attempt, approved, requestId)) {
          await finishAttempt(tx, attempt.token, 'refunded');
          return true;
        }
        await markChecked(tx, attempt.token);
        return false;
      };

      if (!matches) {
        // Webpay's answer does not describe what we sent: take nothing, give back anything taken, and leave a trail.
        logFor(requestId).error({ idTransaccion: trx.idTransaccion }, 'webpay answer does not match the stores sent');
        await appendAudit(tx, { kind: 'webpay.discrepancia', requestId, detail: { idTransaccion: trx.idTransaccion, buyOrder: attempt.buyOrder } });
        await giveBack();
        return 'error';
      }
      if (approved.length === 0) {
        await finishAttempt(tx, attempt.token, 'rejected');
        await closeIfPending(tx, trx.idTransaccion, 'rejected');
        return trx.status === 'paid' ? 'aprobado' : 'rechazado';
      }
      if (trx.status !== 'pending') {
        // Already paid (another tab, another method) or closed: this money must go back.
        if (await giveBack()) await appendAudit(tx, { kind: 'webpay.reembolso', requestId, detail: { idTransaccion: trx.idTransaccion, motivo: trx.status } });
        return trx.status === 'paid' ? 'aprobado' : 'rechazado';
      }
      const storeOf = (d: WebpayResult['details'][number]) => attempt.stores.find((s) => s.buyOrder === d.buy_order)!;
      const approvedProducts = new Set(approved.map((d) => storeOf(d).productId));
      const codes = Object.fromEntries(approved.map((d) => [storeOf(d).numeroProducto, d.authorization_code ?? '']));
      const card = result.card_detail?.card_number ?? '';
      try {
        // A savepoint: if the instalments were paid meanwhile, only the application rolls back, not the bookkeeping.
        await tx.transaction((sp) =>
          applyPayment(sp, trx, { medioPago: 'WEBPAY', cuentaPago: card ? `**** ${card}` : 'Webpay', authorizationCodes: codes, productIds: approvedProducts }, clock()),
        );
      } catch (error) {
        if (!(error instanceof PaymentRefused)) throw error;
        const refunded = await giveBack();
        await closeIfPending(tx, trx.idTransaccion, 'rejected');
        if (refunded) await appendAudit(tx, { kind: 'webpay.reembolso', requestId, detail: { idTransaccion: trx.idTransaccion, motivo: error.codigo } });
        return 'rechazado';
      }
      await finishAttempt(tx, attempt.token, 'committed');
      await appendAudit(tx, { kind: 'pago.webpay', requestId, detail: { idTransaccion: trx.idTransaccion, tiendas: approved.length, de: result.details.length } });
      return approved.length === result.details.length ? 'aprobado' : 'parcial';
    },
  };
}
