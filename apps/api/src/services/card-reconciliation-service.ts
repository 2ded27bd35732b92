import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { lockTransaction, moveTransaction } from '../repositories/transaction-repository';
import { databaseFailure, loggableError } from '../loggable-error';
import { appendAudit } from '../repositories/audit-repository';
import { claimNextToReconcile, countOverdue, countPendingOf, lockAttempt, moveAttempt, recheckDone, recordReconciliationFailure, type WebpayAttemptRow } from '../repositories/webpay-attempt-repository';
import type { CardSettlement } from './card-settlement';
import { isApproved } from './webpay-client';

/** Failed reconciliations of one attempt before it is set aside for the operator (back-off: 30 s doubling to 1 h). */
export const MAX_FAILURES = 8;

/**
 * Settles the card payments the browser never came back from, older than the form's lifetime, by asking Webpay.
 * Every replica runs it: SKIP LOCKED gives each attempt to one of them.
 */
export function createCardReconciliationService(db: Db, settlement: CardSettlement, options: { settleAfterSeconds: number }, log: FastifyBaseLogger) {
  /**
   * Takes the next attempt: 'none' left, Webpay gave no answer ('unanswered', asked again later), or 'settled'.
   * `taking.token` names the attempt taken, for when its transaction fails. Claimed in a short transaction, asked
   * about with no lock held, and recorded under the attempt's and the transaction's locks.
   */
  async function reconcileNext(taking: { token: string | null }): Promise<'none' | 'unanswered' | 'settled'> {
    const attempt = await db.transaction((tx) => claimNextToReconcile(tx, options.settleAfterSeconds));
    if (!attempt) return 'none';
    taking.token = attempt.token;
    if (attempt.status === 'refund_due') {
      await settlement.refundDue(attempt.token, null);
      return 'settled';
    }
    if (attempt.status === 'cancelled') return recheckCancelled(attempt);
    const result = await settlement.commitOrStatus(attempt.token);
    if (!result.ok) {
      log.warn({ idTransaccion: attempt.idTransaccion, kind: result.kind }, 'reconciliation: webpay gave no answer, will ask again');
      return 'unanswered';
    }
    // No card was ever entered (the form was left unused, aborted or timed out): nothing was charged.
    const untouched = !result.data.card_detail?.card_number && result.data.details.every((d) => !isApproved(d));
    const refund = await db.transaction(async (tx) => {
      const locked = await lockAttempt(tx, { token: attempt.token });
      const trx = locked ? await lockTransaction(tx, locked.idTransaccion) : null;
      // A browser's return recorded it meanwhile.
      if (!locked || !trx || locked.status !== 'pending') return false;
      if (!untouched) return (await settlement.settle(tx, locked, trx, result.data, null)).refund;
      await moveAttempt(tx, attempt.token, 'expired');
      // A reload of the card screen opened a newer form for this transaction: it may still be paid there, so the
      // transaction expires only with its last open form (the transaction's lock orders the replicas).
      if ((await countPendingOf(tx, trx.idTransaccion)) === 0) await moveTransaction(tx, trx.idTransaccion, 'pending', 'expired');
      return false;
    });
    if (refund) await settlement.refundDue(attempt.token, null);
    return 'settled';
  }

  /**
   * A browser's return cancelled this attempt once Webpay said its form had ended. If Webpay approved it after all,
   * the money is given back (the transaction is closed); otherwise nothing more is done.
   */
  async function recheckCancelled(attempt: WebpayAttemptRow): Promise<'unanswered' | 'settled'> {
    const asked = await settlement.webpayStatus(attempt.token);
    if (!asked.ok) return 'unanswered';
    if (!asked.data.details.some(isApproved)) {
      await db.transaction((tx) => recheckDone(tx, attempt.token));
      return 'settled';
    }
    const committed = await settlement.commitOrStatus(attempt.token);
    if (!committed.ok) return 'unanswered';
    log.warn({ idTransaccion: attempt.idTransaccion }, 'reconciliation: webpay approved a payment a browser return had cancelled');
    const moved = await db.transaction(async (tx) => {
      const locked = await lockAttempt(tx, { token: attempt.token });
      if (locked?.status !== 'cancelled') return false;
      await moveAttempt(tx, attempt.token, 'refund_due');
      await appendAudit(tx, { kind: 'webpay.anulacion.revisada', detail: { idTransaccion: attempt.idTransaccion, buyOrder: attempt.buyOrder } });
      return true;
    });
    if (moved) await settlement.refundDue(attempt.token, null);
    return 'settled';
  }

  /** One attempt's reconciliation failed: it backs off, and is set aside past MAX_FAILURES; the others go on. */
  async function recordFailure(token: string, error: unknown): Promise<void> {
    const state = await db.transaction(async (tx) => {
      const after = await recordReconciliationFailure(tx, token, MAX_FAILURES);
      if (after?.setAside) await appendAudit(tx, { kind: 'webpay.apartado', detail: { idTransaccion: after.idTransaccion, motivo: 'conciliación fallida', intentos: after.failures } });
      return after;
    });
    log.error({ idTransaccion: state?.idTransaccion, failures: state?.failures, setAside: state?.setAside, error: loggableError(error) }, 'reconciliation of a card payment failed');
  }

  return {
    /**
     * Settles up to `limit` attempts, each in a transaction of its own: one that fails is counted and backs off, and
     * the run goes on with the next. Returns how many were settled and failed, and the backlog left.
     */
    async reconcileOnce(limit = 20): Promise<{ settled: number; failed: number; backlog: number }> {
      let settled = 0;
      let failed = 0;
      for (let taken = 0; taken < limit; taken++) {
        const taking: { token: string | null } = { token: null };
        try {
          const outcome = await reconcileNext(taking);
          if (outcome === 'none') break;
          if (outcome === 'settled') settled++;
        } catch (error) {
          // Without the database nothing can be recorded or settled: the run ends, and the next one tries again.
          if (databaseFailure(error) === 'unavailable' || !taking.token) throw error;
          failed++;
          await recordFailure(taking.token, error);
        }
      }
      const backlog = await countOverdue(db, options.settleAfterSeconds);
      if (settled > 0 || failed > 0 || backlog > 0) log.info({ settled, failed, backlog }, 'webpay reconciliation');
      return { settled, failed, backlog };
    },
  };
}
