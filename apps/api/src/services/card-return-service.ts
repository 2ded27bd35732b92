import type { Db, Tx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { closeIfPending, lockTransaction } from '../repositories/transaction-repository';
import { cancelAndRecheck, countPendingOf, lockAttempt, markChecked } from '../repositories/webpay-attempt-repository';
import { estadoOf, type CardSettlement, type ReturnOutcome } from './card-settlement';
import { isApproved, type WebpayClient } from './webpay-client';

// Webpay's tokens and buy orders are short printable ASCII; anything else is not Webpay's and finds nothing.
const WEBPAY_FIELD = /^[\x21-\x7e]{1,128}$/;

/** The browser's return from Webpay to the payment host: settled, cancelled or left for the reconciliation. */
export function createCardReturnService(db: Db, webpay: WebpayClient, settlement: CardSettlement) {
  /** The attempt and its transaction, locked in that order (the order of every card path). */
  async function lockBoth(tx: Tx, by: { token: string } | { buyOrder: string }) {
    const attempt = await lockAttempt(tx, by);
    const trx = attempt ? await lockTransaction(tx, attempt.idTransaccion) : null;
    return attempt && trx ? { attempt, trx } : null;
  }

  /**
   * A return that says the member left the form (abort or timeout). Anyone can post one, so Webpay is asked first:
   * a payment it approved is settled, a form it still has open is left alone, and only a form it ended is cancelled.
   * The transaction is cancelled only when none of its forms is still open (a reload may be paying on another), and
   * the reconciliation asks Webpay about the attempt once more later.
   */
  function cancel(by: { token: string } | { buyOrder: string }, requestId: string): Promise<ReturnOutcome> {
    return db.transaction(async (tx) => {
      const locked = await lockBoth(tx, by);
      if (!locked) return { idTransaccion: null, estado: 'error' as const };
      const { attempt, trx } = locked;
      const id = trx.idTransaccion;
      if (attempt.status !== 'pending') return { idTransaccion: id, estado: estadoOf(attempt.status, trx.status) };
      const asked = await webpay.status(attempt.token);
      if (!asked.ok) {
        await markChecked(tx, attempt.token);
        return { idTransaccion: id, estado: 'pendiente' as const };
      }
      if (asked.data.details.some(isApproved)) {
        // The member paid on the form: this cancellation is not Webpay's. Commit and apply it as a normal return.
        const committed = await settlement.commitOrStatus(attempt.token);
        if (!committed.ok) {
          await markChecked(tx, attempt.token);
          return { idTransaccion: id, estado: 'pendiente' as const };
        }
        await appendAudit(tx, { kind: 'webpay.anulacion.rechazada', requestId, detail: { idTransaccion: id, motivo: 'pagado' } });
        return { idTransaccion: id, estado: await settlement.settle(tx, attempt, trx, committed.data, requestId) };
      }
      if (asked.data.details.every((d) => d.status === 'INITIALIZED')) {
        await appendAudit(tx, { kind: 'webpay.anulacion.rechazada', requestId, detail: { idTransaccion: id, motivo: 'formulario abierto' } });
        return { idTransaccion: id, estado: 'pendiente' as const };
      }
      await cancelAndRecheck(tx, attempt.token);
      if ((await countPendingOf(tx, id)) === 0) await closeIfPending(tx, id, 'cancelled');
      await appendAudit(tx, { kind: 'webpay.anulado', requestId, detail: { idTransaccion: id } });
      return { idTransaccion: id, estado: trx.status === 'paid' ? ('aprobado' as const) : ('anulado' as const) };
    });
  }

  /** Normal return: commit once under the attempt's and the transaction's locks; a repeat finds it settled. */
  function settleToken(token: string, requestId: string): Promise<ReturnOutcome> {
    return db.transaction(async (tx) => {
      const locked = await lockBoth(tx, { token });
      if (!locked) return { idTransaccion: null, estado: 'error' as const };
      const { attempt, trx } = locked;
      if (attempt.status !== 'pending') return { idTransaccion: trx.idTransaccion, estado: estadoOf(attempt.status, trx.status) };
      const result = await settlement.commitOrStatus(token);
      if (!result.ok) {
        await markChecked(tx, token);
        settlement.logFor(requestId).warn({ idTransaccion: trx.idTransaccion, kind: result.kind }, 'webpay commit without an answer: left for reconciliation');
        return { idTransaccion: trx.idTransaccion, estado: 'pendiente' as const };
      }
      if (result.data.details.every((d) => d.status === 'INITIALIZED')) return { idTransaccion: trx.idTransaccion, estado: 'pendiente' as const };
      return { idTransaccion: trx.idTransaccion, estado: await settlement.settle(tx, attempt, trx, result.data, requestId) };
    });
  }

  return {
    /**
     * The browser's return from Webpay, by GET or POST, with no cookie needed. The four flows are told apart
     * before anything is committed (Transbank's docs, 'Resumen de flujos').
     */
    handleReturn(fields: Record<string, unknown>, requestId: string): Promise<ReturnOutcome> {
      const str = (k: string) => (typeof fields[k] === 'string' && WEBPAY_FIELD.test(fields[k]) ? fields[k] : undefined);
      const tokenWs = str('token_ws');
      const tbkToken = str('TBK_TOKEN');
      const orden = str('TBK_ORDEN_COMPRA');
      if (tokenWs && !tbkToken) return settleToken(tokenWs, requestId);
      if (tbkToken) return cancel({ token: tokenWs ?? tbkToken }, requestId);
      if (orden) return cancel({ buyOrder: orden }, requestId);
      return Promise.resolve({ idTransaccion: null, estado: 'error' });
    },
  };
}
