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
  lockOperation,
  recordUnanswered,
  settleOperation,
  type CoreOperationRow,
} from '../repositories/core-operation-repository';
import { lockTransaction, moveTransaction, voucherOf } from '../repositories/transaction-repository';
import type { CoreAnswer, CoreBanking, CoreLine } from './core-banking';
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

const toCoreLine = (line: CoreLineRow): CoreLine => ({ numeroProducto: line.numeroProducto, family: line.family as Family, amount: line.amount });

/**
 * Every operation asked of the core, between two short database transactions: the intent is written first (call 6's
 * try, or the card payment's outbox row), the core is called with no connection or lock held, and the answer is
 * recorded under the transaction's lock. An operation left without an answer (a timeout, a lost answer, a crash) is
 * asked again under the same key by `postDue`, on any replica, until the core answers: never booked twice.
 */
export function createCorePostings(db: Db, clock: Clock, core: CoreBanking, options: CorePostingsOptions, log: FastifyBaseLogger) {
  function send(op: CoreOperationRow): Promise<CoreAnswer> {
    if (op.kind === 'cuenta_vista') return core.payFromAccount(op.key, { numeroCuenta: op.sourceAccount!, lines: op.lines.map(toCoreLine), date: op.createdAt });
    return core.credit(op.key, toCoreLine(op.lines[0]!), op.createdAt);
  }

  /** Records the core's answer to an own-account debit: the payment applied with its voucher, or given back to pending. */
  function recordOwnAccount(op: CoreOperationRow, answer: CoreAnswer, requestId: string | null): Promise<OwnAccountOutcome> {
    return db.transaction(async (tx): Promise<OwnAccountOutcome> => {
      const trx = await lockTransaction(tx, op.idTransaccion);
      const current = await lockOperation(tx, op.key);
      if (!trx || !current) return { ok: false, codigo: '503' };
      // Another call or replica recorded it first: answer what it recorded.
      if (current.status === 'booked') {
        const pagos = await voucherOf(tx, trx.idTransaccion);
        return pagos ? { ok: true, pagos } : { ok: false, codigo: '503' };
      }
      if (current.status === 'refused') return { ok: false, codigo: current.lastError === 'insufficient_funds' ? '47203' : '502' };
      if (answer.outcome === 'unknown') {
        await recordUnanswered(tx, op.key, answer.detail);
        return { ok: false, codigo: '503' };
      }
      const rutMasked = trx.payerRut ? maskRut(trx.payerRut) : null;
      if (answer.outcome === 'refused') {
        await settleOperation(tx, op.key, 'refused', { lastError: answer.reason });
        await moveTransaction(tx, trx.idTransaccion, 'posting', 'pending');
        await appendAudit(tx, { kind: 'core.debito.rechazado', rutMasked, requestId, detail: { idTransaccion: trx.idTransaccion, clave: op.key, motivo: answer.reason } });
        if (answer.reason === 'refused') log.error({ idTransaccion: trx.idTransaccion, detail: answer.detail }, 'the core refused an own-account debit');
        return { ok: false, codigo: answer.reason === 'insufficient_funds' ? '47203' : '502' };
      }
      await settleOperation(tx, op.key, 'booked', { coreRefs: answer.refs });
      // The core's own ids stay in core_refs for reconciliation; the voucher's number is ours (payment-service.ts):
      // the core counts transfers and repayments apart, so its ids repeat across payments.
      const pagos = await applyPayment(
        tx,
        trx,
        { medioPago: 'CUENTA VISTA', accountId: trx.accountId!, cuentaPago: maskAccount(op.sourceAccount!), bookedByCore: true },
        clock(),
      );
      await appendAudit(tx, { kind: 'pago.cuentavista', rutMasked, requestId, detail: { idTransaccion: trx.idTransaccion, total: trx.total, clave: op.key } });
      return { ok: true, pagos };
    });
  }

  /** Records the core's answer to a card payment's credit: booked, refused (an operator settles it), or asked again. */
  function recordCredit(op: CoreOperationRow, answer: CoreAnswer): Promise<void> {
    return db.transaction(async (tx) => {
      const current = await lockOperation(tx, op.key);
      if (!current || current.status !== 'pending') return;
      if (answer.outcome === 'unknown') return recordUnanswered(tx, op.key, answer.detail);
      if (answer.outcome === 'booked') return settleOperation(tx, op.key, 'booked', { coreRefs: answer.refs });
      await settleOperation(tx, op.key, 'refused', { lastError: answer.detail });
      await appendAudit(tx, { kind: 'core.abono.rechazado', detail: { idTransaccion: op.idTransaccion, clave: op.key, motivo: answer.detail } });
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
      for (const pause of options.retryPausesMs) {
        if (answer.outcome !== 'unknown') break;
        await sleep(pause);
        answer = await send(op);
      }
      if (answer.outcome === 'unknown') log.warn({ idTransaccion: op.idTransaccion, detail: answer.detail }, 'the core gave no answer to an own-account debit: asked again later');
      return recordOwnAccount(op, answer, requestId);
    },

    /**
     * Sends the operations due (the outbox of card credits, and debits left without an answer), each claimed under a
     * lease, up to `limit`. Answers how many were booked, refused and left unanswered.
     */
    async postDue(limit = 50): Promise<{ booked: number; refused: number; unanswered: number }> {
      const tally = { booked: 0, refused: 0, unanswered: 0 };
      for (let i = 0; i < limit; i++) {
        const op = await db.transaction((tx) => claimDue(tx, options.leaseSeconds));
        if (!op) break;
        const answer = await send(op);
        if (op.kind === 'cuenta_vista') await recordOwnAccount(op, answer, null);
        else await recordCredit(op, answer);
        tally[answer.outcome === 'unknown' ? 'unanswered' : answer.outcome]++;
      }
      if (tally.booked + tally.refused + tally.unanswered > 0) log.info(tally, 'core postings');
      return tally;
    },
  };
}
