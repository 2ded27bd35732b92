import type { Pago } from '@pago/domain/schemas/call-consultar-pago';
import type { Family } from '@pago/domain/families';
import { maskRut } from '@pago/domain/rut';
import type { FastifyBaseLogger } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { CoreLineRow } from '../db/schema';
import { appendAudit } from '../repositories/audit-repository';
import {
  claimDue,
  firstKeyOf,
  insertOperation,
  lockOperation,
  moveOperation,
  nextTryKey,
  recordUnanswered,
  triesOf,
  type CoreOperationRow,
} from '../repositories/core-operation-repository';
import { lockTransaction, moveTransaction, voucherOf } from '../repositories/transaction-repository';
import { expectMoved } from '../repositories/moves';
import type { CoreAnswer, CoreBanking, CoreLine, CoreReversal } from './core-banking';
import { applyPayment, maskAccount } from './payment-service';

/** How call 6 ends once the core has been asked: paid (the voucher), refused by the core, or still unknown. */
export type OwnAccountOutcome = { ok: true; pagos: Pago[] } | { ok: false; codigo: '47203' | '502' | '503' };

export type CorePostings = ReturnType<typeof createCorePostings>;

export interface CorePostingsOptions {
  /** A claimed operation is not taken by another replica for this long while it is at the core. */
  leaseSeconds: number;
  /** Pauses between asking again within call 6 when the core gave no answer. */
  retryPausesMs: readonly number[];
}

/** Tries of a card credit the core may fail (a failure it records) before it waits for the console's re-posting. */
export const CARD_CREDIT_TRIES = 5;
/**
 * Answers of an own-account batch the core ran and rolled back, keeping nothing, before the try ends as failed: the
 * same bound as a card credit's tries, over the back-off of recordUnanswered (5 s doubling), so any earlier request of
 * the same key has long ended (a repeat waits on its rows) and nothing of it can still commit.
 */
export const CORE_BATCH_TRIES = 5;
/** Seconds before a card credit's next try after a recorded failure: doubles per try, from 30 s up to 10 minutes. */
export const nextTryAfterSeconds = (failedTries: number) => Math.min(600, 30 * 2 ** Math.max(0, failedTries - 1));

/** What a reversal (`{key}.x`, `.rN` per try) gives back: the operation it names, own-account or card credit. */
export function reversalOf(op: CoreOperationRow): CoreReversal {
  const originalKey = firstKeyOf(op.key).replace(/\.x$/, '');
  const lines = op.lines.map(toCoreLine);
  return op.sourceAccount
    ? { kind: 'cuenta_vista', originalKey, numeroCuenta: op.sourceAccount, lines, date: op.createdAt }
    : { kind: 'abono_webpay', originalKey, line: lines[0]!, date: op.createdAt };
}

const toCoreLine = (line: CoreLineRow): CoreLine => ({ numeroProducto: line.numeroProducto, family: line.family as Family, amount: line.amount });

/**
 * Every operation asked of the core, between two short database transactions: the intent is written first (call 6's
 * try, or the card payment's outbox row), the core is called with no connection or lock held, and the answer is
 * recorded under the transaction's lock. An operation left without an answer (a timeout, a lost answer, a crash) is
 * asked again under the same key by `postDue`, on any replica, until the core answers: never booked twice.
 */
export function createCorePostings(db: Db, clock: Clock, core: CoreBanking, options: CorePostingsOptions, log: FastifyBaseLogger) {
  function send(op: CoreOperationRow): Promise<CoreAnswer> {
    if (op.kind === 'anulacion') return core.reverse(op.key, reversalOf(op));
    if (op.kind === 'cuenta_vista') return core.payFromAccount(op.key, { numeroCuenta: op.sourceAccount!, lines: op.lines.map(toCoreLine), date: op.createdAt });
    return core.credit(op.key, toCoreLine(op.lines[0]!), op.createdAt);
  }

  /** Records the core's answer to an own-account debit: the payment applied with its voucher, or given back to pending. */
  function recordOwnAccount(op: CoreOperationRow, reply: CoreAnswer, requestId: string | null): Promise<OwnAccountOutcome> {
    return db.transaction(async (tx): Promise<OwnAccountOutcome> => {
      const trx = await lockTransaction(tx, op.idTransaccion);
      const current = await lockOperation(tx, op.key);
      if (!trx || !current) return { ok: false, codigo: '503' };
      // A batch rolled back with nothing kept, CORE_BATCH_TRIES times: applied nothing, ends as a recorded failure.
      const exhausted = reply.outcome === 'unknown' && reply.rolledBack === true && current.attempts + 1 >= CORE_BATCH_TRIES;
      const answer: CoreAnswer = exhausted ? { outcome: 'failed', detail: `${reply.detail} (rolled back ${CORE_BATCH_TRIES} times)` } : reply;
      // Another call or replica recorded it first: answer what it recorded.
      if (current.status === 'booked') {
        const pagos = await voucherOf(tx, trx.idTransaccion);
        return pagos ? { ok: true, pagos } : { ok: false, codigo: '503' };
      }
      if (current.status === 'refused') return { ok: false, codigo: current.lastError === 'insufficient_funds' ? '47203' : '502' };
      if (current.status === 'failed') return { ok: false, codigo: '502' };
      if (answer.outcome === 'unknown') {
        await recordUnanswered(tx, op.key, answer.detail);
        return { ok: false, codigo: '503' };
      }
      const rutMasked = trx.payerRut ? maskRut(trx.payerRut) : null;
      if (answer.outcome === 'failed') {
        // Nothing was debited under this try, and its key never will be: the member is told, the instalments are
        // payable again, and the member's next authorised call 6 is the next try, under its own key.
        await moveOperation(tx, op.key, 'pending', 'failed', { lastError: answer.detail });
        expectMoved(await moveTransaction(tx, trx.idTransaccion, 'posting', 'pending'), 'transaction back to pending');
        await appendAudit(tx, { kind: 'core.debito.fallido', rutMasked, requestId, detail: { idTransaccion: trx.idTransaccion, clave: op.key, motivo: answer.detail } });
        log.error({ idTransaccion: trx.idTransaccion, detail: answer.detail }, 'the core recorded a failure of an own-account debit: nothing was debited');
        return { ok: false, codigo: '502' };
      }
      if (answer.outcome === 'refused') {
        await moveOperation(tx, op.key, 'pending', 'refused', { lastError: answer.reason });
        expectMoved(await moveTransaction(tx, trx.idTransaccion, 'posting', 'pending'), 'transaction back to pending');
        await appendAudit(tx, { kind: 'core.debito.rechazado', rutMasked, requestId, detail: { idTransaccion: trx.idTransaccion, clave: op.key, motivo: answer.reason } });
        if (answer.reason === 'refused') log.error({ idTransaccion: trx.idTransaccion, detail: answer.detail }, 'the core refused an own-account debit');
        return { ok: false, codigo: answer.reason === 'insufficient_funds' ? '47203' : '502' };
      }
      await moveOperation(tx, op.key, 'pending', 'booked', { coreRefs: answer.refs });
      // The core's own ids stay in core_refs for reconciliation; the voucher's number is ours (payment-service.ts):
      // the core counts transfers and repayments apart, so its ids repeat across payments.
      const applied = await applyPayment(
        tx,
        trx,
        { medioPago: 'CUENTA VISTA', accountId: trx.accountId!, cuentaPago: maskAccount(op.sourceAccount!), bookedByCore: true },
        clock(),
      );
      // What the core booked is applied unchecked: only the debited account's row gone could refuse it.
      if (!applied.ok) throw new Error(`a debit the core booked could not be applied: ${applied.codigo}`);
      await appendAudit(tx, { kind: 'pago.cuentavista', rutMasked, requestId, detail: { idTransaccion: trx.idTransaccion, total: trx.total, clave: op.key } });
      return { ok: true, pagos: applied.pagos };
    });
  }

  /**
   * Records the core's answer to a card payment's credit: booked; refused (an operator re-posts or refunds it); failed
   * under this key, so the credit goes on under its next key after a back-off, up to CARD_CREDIT_TRIES, then waits
   * for the operator as a refusal does; or asked again under the same key.
   */
  function recordCredit(op: CoreOperationRow, answer: CoreAnswer): Promise<void> {
    // A reversal's tries go as a card credit's do; its events are its own.
    return db.transaction(async (tx) => {
      const current = await lockOperation(tx, op.key);
      if (!current || current.status !== 'pending') return;
      if (answer.outcome === 'unknown') return recordUnanswered(tx, op.key, answer.detail);
      if (answer.outcome === 'booked') {
        await moveOperation(tx, op.key, 'pending', 'booked', { coreRefs: answer.refs });
        if (op.kind === 'anulacion') await appendAudit(tx, { kind: 'core.anulacion', detail: { idTransaccion: op.idTransaccion, clave: op.key, monto: op.amount } });
        return;
      }
      if (answer.outcome === 'failed') {
        const tries = await triesOf(tx, op.key);
        const failed = tries.filter((t) => t.status === 'failed').length + 1;
        if (failed < CARD_CREDIT_TRIES) {
          await moveOperation(tx, op.key, 'pending', 'failed', { lastError: answer.detail });
          const key = nextTryKey(op.key, tries);
          await insertOperation(tx, { key, idTransaccion: op.idTransaccion, kind: op.kind, amount: op.amount, lines: op.lines, sourceAccount: op.sourceAccount, firstTryAfterSeconds: nextTryAfterSeconds(failed) });
          await appendAudit(tx, { kind: op.kind === 'anulacion' ? 'core.anulacion.fallida' : 'core.abono.fallido', detail: { idTransaccion: op.idTransaccion, clave: op.key, nuevaClave: key, motivo: answer.detail } });
          log.warn({ idTransaccion: op.idTransaccion, key: op.key, next: key, detail: answer.detail }, 'the core recorded a failure of a card payment credit: the next try goes under a new key');
          return;
        }
      }
      await moveOperation(tx, op.key, 'pending', 'refused', { lastError: answer.detail });
      await appendAudit(tx, { kind: op.kind === 'anulacion' ? 'core.anulacion.rechazada' : 'core.abono.rechazado', detail: { idTransaccion: op.idTransaccion, clave: op.key, motivo: answer.detail } });
      log.error({ idTransaccion: op.idTransaccion, key: op.key, detail: answer.detail }, 'the core refused a card payment credit: an operator must post it or refund it');
    });
  }

  return {
    /**
     * Call 6's debit, written as `posting` by the caller (or by an earlier call 6 of the same transaction, still
     * without an answer): asks the core, and asks again with the same key a few times while it gives no answer (a
     * copy of the call that arrives while the first is at the core meets 425 and waits for it). Still none: the
     * member is told the service failed and `postDue` keeps asking.
     */
    async payOwnAccount(op: CoreOperationRow, requestId: string): Promise<OwnAccountOutcome> {
      let answer = await send(op);
      // A first 5xx is asked again too: the repeat, served from the core's record or not, tells a failure it keeps.
      for (const pause of options.retryPausesMs) {
        if (answer.outcome !== 'unknown') break;
        await sleep(pause);
        answer = await send(op);
      }
      if (answer.outcome === 'unknown') log.warn({ idTransaccion: op.idTransaccion, detail: answer.detail }, 'the core gave no answer to an own-account debit: asked again later');
      return recordOwnAccount(op, answer, requestId);
    },

    /** Sends one reversal (decision 050) and records the core's answer; `postDue` asks again what this leaves pending. */
    async postReversal(op: CoreOperationRow): Promise<void> {
      await recordCredit(op, await send(op));
    },

    /**
     * Sends the operations due (the outbox of card credits, and debits left without an answer), each claimed under a
     * lease, up to `limit`. Answers how many were booked, refused and left unanswered.
     */
    async postDue(limit = 50): Promise<{ booked: number; refused: number; unanswered: number; failed: number }> {
      const tally = { booked: 0, refused: 0, unanswered: 0, failed: 0 };
      for (let i = 0; i < limit; i++) {
        const op = await db.transaction((tx) => claimDue(tx, options.leaseSeconds));
        if (!op) break;
        const answer = await send(op);
        // An own-account batch rolled back for the last time was recorded as failed (recordOwnAccount).
        const recorded = op.kind === 'cuenta_vista' ? await recordOwnAccount(op, answer, null) : await recordCredit(op, answer);
        const failedNow = answer.outcome === 'unknown' && recorded !== undefined && !recorded.ok && recorded.codigo === '502';
        tally[failedNow ? 'failed' : answer.outcome === 'unknown' ? 'unanswered' : answer.outcome]++;
      }
      if (tally.booked + tally.refused + tally.unanswered + tally.failed > 0) log.info(tally, 'core postings');
      return tally;
    },
  };
}
