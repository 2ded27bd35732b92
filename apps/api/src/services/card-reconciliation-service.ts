import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { lockTransaction, moveTransaction } from '../repositories/transaction-repository';
import { databaseFailure, loggableError } from '../loggable-error';
import { appendAudit } from '../repositories/audit-repository';
import { claimNextToReconcile, countOverdue, countPendingOf, lockAttempt, moveAttempt, recheckDone, recordReconciliationFailure, type OpenedAttemptRow, type WebpayAttemptRow } from '../repositories/webpay-attempt-repository';
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
   * `taking.buyOrder` names the attempt taken, for when its transaction fails. Claimed in a short transaction, asked
   * about with no lock held, and recorded under the attempt's and the transaction's locks.
   */
  async function reconcileNext(taking: { buyOrder: string | null }): Promise<'none' | 'unanswered' | 'settled'> {
    const claimed = await db.transaction((tx) => claimNextToReconcile(tx, options.settleAfterSeconds));
    if (!claimed) return 'none';
    taking.buyOrder = claimed.buyOrder;
    if (claimed.status === 'creating' || claimed.token === null) return closeIntent(claimed);
    const attempt = claimed as OpenedAttemptRow;
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
      if (!(await moveAttempt(tx, { token: attempt.token }, 'pending', 'expired'))) return false;
      // A reload of the card screen opened a newer form for this transaction: it may still be paid there, so the
      // transaction expires only with its last open form (the transaction's lock orders the replicas).
      if ((await countPendingOf(tx, trx.idTransaccion)) === 0) await moveTransaction(tx, trx.idTransaccion, 'pending', 'expired');
      return false;
    });
    if (refund) await settlement.refundDue(attempt.token, null);
    return 'settled';
  }

  /**
   * An intent whose outcome was never recorded (a crash while Webpay's create was asked, or the database gone when it
   * answered). Webpay is asked by token only, and its token reached nobody: no browser holds the form, so no card can
   * be entered on it and Webpay times it out untouched. It is closed, and the transaction may be paid again.
   */
  async function closeIntent(attempt: WebpayAttemptRow): Promise<'settled'> {
    await db.transaction(async (tx) => {
      if (await moveAttempt(tx, { buyOrder: attempt.buyOrder }, 'creating', 'not_opened')) {
        await appendAudit(tx, { kind: 'webpay.init.cerrado', detail: { idTransaccion: attempt.idTransaccion, buyOrder: attempt.buyOrder } });
      }
    });
    log.warn({ idTransaccion: attempt.idTransaccion }, 'reconciliation: closed a card form Webpay was asked for but never recorded');
    return 'settled';
  }

  /**
   * A browser's return cancelled this attempt once Webpay said its form had ended. If Webpay approved it after all,
   * the money is given back (the transaction is closed); otherwise nothing more is done.
   */
  async function recheckCancelled(attempt: OpenedAttemptRow): Promise<'unanswered' | 'settled'> {
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
      if (!(await moveAttempt(tx, { token: attempt.token }, 'cancelled', 'refund_due'))) return false;
      await appendAudit(tx, { kind: 'webpay.anulacion.revisada', detail: { idTransaccion: attempt.idTransaccion, buyOrder: attempt.buyOrder } });
      return true;
    });
    if (moved) await settlement.refundDue(attempt.token, null);
    return 'settled';
  }

  /** One attempt's reconciliation failed: it backs off, and is set aside past MAX_FAILURES; the others go on. */
  async function recordFailure(buyOrder: string, error: unknown): Promise<void> {
    const state = await db.transaction(async (tx) => {
      const after = await recordReconciliationFailure(tx, buyOrder, MAX_FAILURES);
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
        const taking: { buyOrder: string | null } = { buyOrder: null };
        try {
          const outcome = await reconcileNext(taking);
          if (outcome === 'none') break;
          if (outcome === 'settled') settled++;
        } catch (error) {
          // Without the database nothing can be recorded or settled: the run ends, and the next one tries again.
          if (databaseFailure(error) === 'unavailable' || !taking.buyOrder) throw error;
          failed++;
          await recordFailure(taking.buyOrder, error);
        }
      }
      const backlog = await countOverdue(db, options.settleAfterSeconds);
      if (settled > 0 || failed > 0 || backlog > 0) log.info({ settled, failed, backlog }, 'webpay reconciliation');
      return { settled, failed, backlog };
    },
  };
}
