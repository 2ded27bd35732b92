import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { closeIfPending, lockTransaction } from '../repositories/transaction-repository';
import { countOverdue, countPendingOf, finishAttempt, lockNextToReconcile, markChecked } from '../repositories/webpay-attempt-repository';
import type { CardSettlement } from './card-settlement';
import { isApproved } from './webpay-client';

/**
 * Settles the card payments the browser never came back from, older than the form's lifetime, by asking Webpay.
 * Every replica runs it: SKIP LOCKED gives each attempt to one of them.
 */
export function createCardReconciliationService(db: Db, settlement: CardSettlement, options: { settleAfterSeconds: number }, log: FastifyBaseLogger) {
  /** Takes the next attempt: 'none' left, Webpay gave no answer ('unanswered', asked again later), or 'settled'. */
  function reconcileNext(): Promise<'none' | 'unanswered' | 'settled'> {
    return db.transaction(async (tx) => {
      const attempt = await lockNextToReconcile(tx, options.settleAfterSeconds);
      if (!attempt) return 'none';
      const trx = await lockTransaction(tx, attempt.idTransaccion);
      if (!trx) return 'none';
      const result = await settlement.commitOrStatus(attempt.token);
      if (!result.ok) {
        await markChecked(tx, attempt.token);
        log.warn({ idTransaccion: trx.idTransaccion, kind: result.kind }, 'reconciliation: webpay gave no answer, will ask again');
        return 'unanswered';
      }
      // No card was ever entered (the form was left unused, aborted or timed out): nothing was charged.
      const untouched = !result.data.card_detail?.card_number && result.data.details.every((d) => !isApproved(d));
      if (!untouched) {
        await settlement.settle(tx, attempt, trx, result.data, null);
        return 'settled';
      }
      await finishAttempt(tx, attempt.token, 'expired');
      // A reload of the card screen opened a newer form for this transaction: it may still be paid there, so the
      // transaction expires only with its last open form (the transaction's lock orders the replicas).
      if ((await countPendingOf(tx, trx.idTransaccion)) === 0) await closeIfPending(tx, trx.idTransaccion, 'expired');
      return 'settled';
    });
  }

  return {
    /** Settles up to `limit` attempts; returns how many, and the backlog left. */
    async reconcileOnce(limit = 20): Promise<{ settled: number; backlog: number }> {
      let settled = 0;
      for (let taken = 0; taken < limit; taken++) {
        const outcome = await reconcileNext();
        if (outcome === 'none') break;
        if (outcome === 'settled') settled++;
      }
      const backlog = await countOverdue(db, options.settleAfterSeconds);
      if (settled > 0 || backlog > 0) log.info({ settled, backlog }, 'webpay reconciliation');
      return { settled, backlog };
    },
  };
}
