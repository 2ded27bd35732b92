import type { AuditEventKind } from '@pago/domain/state-words';
import type { Db, Tx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { findTransaction, lockTransaction, moveTransaction } from '../repositories/transaction-repository';
import { countPendingOf, countRefusedReturn, findAttempt, lockAttempt, markChecked, moveAttempt, RECHECK_NOW, type OpenedAttemptRow } from '../repositories/webpay-attempt-repository';
import { estadoOf, type CardSettlement, type ReturnOutcome } from './card-settlement';
import { isApproved, type WebpayClient, type WebpayResult } from './webpay-client';

/** Past this many refused cancellations, one within RECENTLY_ASKED_MS of the last question to Webpay is not asked. */
export const FLOOD_AFTER_REFUSED_RETURNS = 3;
export const RECENTLY_ASKED_MS = 10_000;

// Webpay's tokens and buy orders are short printable ASCII; anything else is not Webpay's and finds nothing.
const WEBPAY_FIELD = /^[\x21-\x7e]{1,128}$/;

/**
 * The browser's return from Webpay: settled, cancelled or left for the reconciliation. Webpay is asked with no
 * database transaction open; what it answered is then recorded under the attempt's and the transaction's locks, in
 * that order (the order of every card path), by whichever return or replica gets there first.
 */
export function createCardReturnService(db: Db, webpay: WebpayClient, settlement: CardSettlement) {
  /** The attempt and its transaction, locked in that order. */
  async function lockBoth(tx: Tx, by: { token: string }) {
    const attempt = await lockAttempt(tx, by);
    const trx = attempt ? await lockTransaction(tx, attempt.idTransaccion) : null;
    return attempt && trx ? { attempt, trx } : null;
  }

  /** The attempt as it stands, read without locks; a settled one answers what it became. */
  async function look(by: { token: string } | { buyOrder: string }): Promise<{ attempt: OpenedAttemptRow; answer?: undefined } | { answer: ReturnOutcome } | null> {
    const attempt = await findAttempt(db, by);
    if (!attempt) return null;
    if (attempt.status === 'pending' && attempt.token !== null) return { attempt: { ...attempt, token: attempt.token } };
    const trx = await findTransaction(db, attempt.idTransaccion);
    return { answer: { idTransaccion: attempt.idTransaccion, estado: estadoOf(attempt.status, trx?.status ?? 'pending') } };
  }

  /** Records Webpay's approval under the locks; gives back, after them, what could not be applied. */
  async function settleAnswer(token: string, result: WebpayResult, requestId: string, audit?: { kind: AuditEventKind; motivo: string }): Promise<ReturnOutcome> {
    const settled = await db.transaction(async (tx) => {
      const locked = await lockBoth(tx, { token });
      if (!locked) return { idTransaccion: null, estado: 'error' as const, refund: false };
      const { attempt, trx } = locked;
      // Another return or replica recorded it meanwhile.
      if (attempt.status !== 'pending') return { idTransaccion: trx.idTransaccion, estado: estadoOf(attempt.status, trx.status), refund: false };
      if (audit) await appendAudit(tx, { kind: audit.kind, requestId, detail: { idTransaccion: trx.idTransaccion, motivo: audit.motivo } });
      return { idTransaccion: trx.idTransaccion, ...(await settlement.settle(tx, attempt, trx, result, requestId)) };
    });
    if (!settled.refund) return { idTransaccion: settled.idTransaccion, estado: settled.estado };
    await settlement.refundDue(token, requestId);
    // What became of the money taken, now that Webpay was asked to give it back.
    return (await look({ token }))?.answer ?? { idTransaccion: settled.idTransaccion, estado: settled.estado };
  }

  /**
   * A return that says the member left the form (abort or timeout). Anyone can post one, so Webpay is asked first:
   * a payment it approved is settled, a form it still has open is left alone, and only a form it ended is cancelled.
   * The transaction is cancelled only when none of its forms is still open (a reload may be paying on another), and
   * the reconciliation asks Webpay about the attempt once more later.
   */
  async function cancel(by: { token: string } | { buyOrder: string }, requestId: string): Promise<ReturnOutcome> {
    const seen = await look(by);
    if (!seen) return { idTransaccion: null, estado: 'error' };
    if (seen.answer) return seen.answer;
    const { attempt } = seen;
    const id = attempt.idTransaccion;
    // A form already refused cancellations it did not have, and Webpay was asked moments ago: a flood of returns
    // for one attempt costs Webpay one question per interval, each answered from what is known (the reconciliation
    // asks again later). The first few are each checked, so a member's own abort after a stray return still counts.
    const flooded = attempt.refusedReturns >= FLOOD_AFTER_REFUSED_RETURNS && attempt.checkedAt && Date.now() - attempt.checkedAt.getTime() < RECENTLY_ASKED_MS;
    if (flooded) return { idTransaccion: id, estado: 'pendiente' };
    const asked = await webpay.status(attempt.token);
    if (!asked.ok) {
      await markChecked(db, { token: attempt.token });
      return { idTransaccion: id, estado: 'pendiente' };
    }
    if (asked.data.details.some(isApproved)) {
      // The member paid on the form: this cancellation is not Webpay's. Commit and apply it as a normal return.
      const committed = await settlement.commitOrStatus(attempt.token);
      if (!committed.ok) {
        await markChecked(db, { token: attempt.token });
        return { idTransaccion: id, estado: 'pendiente' };
      }
      return settleAnswer(attempt.token, committed.data, requestId, { kind: 'webpay.anulacion.rechazada', motivo: 'pagado' });
    }
    if (asked.data.details.every((d) => d.status === 'INITIALIZED')) {
      // The same refusal again and again is one line in the audit trail and a count on the attempt.
      if (await countRefusedReturn(db, attempt.token)) {
        await appendAudit(db, { kind: 'webpay.anulacion.rechazada', requestId, detail: { idTransaccion: id, motivo: 'formulario abierto' } });
      }
      return { idTransaccion: id, estado: 'pendiente' };
    }
    return db.transaction(async (tx) => {
      const locked = await lockBoth(tx, { token: attempt.token });
      if (!locked) return { idTransaccion: null, estado: 'error' as const };
      const { trx } = locked;
      if (locked.attempt.status !== 'pending') return { idTransaccion: id, estado: estadoOf(locked.attempt.status, trx.status) };
      // Cancelled on a browser's word: the reconciliation asks Webpay once more after the form's lifetime.
      if (!(await moveAttempt(tx, { token: attempt.token }, 'pending', 'cancelled', RECHECK_NOW))) {
        return { idTransaccion: id, estado: 'error' as const };
      }
      if ((await countPendingOf(tx, id)) === 0) await moveTransaction(tx, id, 'pending', 'cancelled');
      await appendAudit(tx, { kind: 'webpay.anulado', requestId, detail: { idTransaccion: id } });
      return { idTransaccion: id, estado: trx.status === 'paid' ? ('aprobado' as const) : ('anulado' as const) };
    });
  }

  /** Normal return: commit (a repeat finds Webpay's answer again by status), then record it once under the locks. */
  async function settleToken(token: string, requestId: string): Promise<ReturnOutcome> {
    const seen = await look({ token });
    if (!seen) return { idTransaccion: null, estado: 'error' };
    if (seen.answer) return seen.answer;
    const id = seen.attempt.idTransaccion;
    const result = await settlement.commitOrStatus(token);
    if (!result.ok) {
      await markChecked(db, { token });
      settlement.logFor(requestId).warn({ idTransaccion: id, kind: result.kind }, 'webpay commit without an answer: left for reconciliation');
      return { idTransaccion: id, estado: 'pendiente' };
    }
    if (result.data.details.every((d) => d.status === 'INITIALIZED')) return { idTransaccion: id, estado: 'pendiente' };
    return settleAnswer(token, result.data, requestId);
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
      // Without TBK_TOKEN the form timed out (Transbank's 'Flujo de timeout'): the member cancelled nothing.
      if (orden) return cancel({ buyOrder: orden }, requestId).then((o) => (o.estado === 'anulado' ? { ...o, estado: 'expirado' as const } : o));
      return Promise.resolve({ idTransaccion: null, estado: 'error' });
    },
  };
}
