import { formatClp } from '@pago/domain/money';
import { REVERSAL_STEP_WORDS } from '@pago/domain/state-words';
import { maskRut } from '@pago/domain/rut';
import type { Db, DbOrTx, Tx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { firstKeyOf, insertOperation, operationsOf, type CoreOperationRow } from '../repositories/core-operation-repository';
import { enqueueMail } from '../repositories/mail-queue-repository';
import { findMemberById, lockAccount, setAccountBalance } from '../repositories/member-repository';
import { expectMoved } from '../repositories/moves';
import { applyToProduct, restoreInstalment } from '../repositories/product-repository';
import { findTransaction, itemsOf, lockTransaction, moveItem, moveTransaction, reversingTransactions, type TransactionRow } from '../repositories/transaction-repository';
import { latestApprovedChangeOn, latestChangeOn } from '../repositories/operator-change-repository';
import { committedAttemptOf, findAttempt, lockAttempt, moveAttempt } from '../repositories/webpay-attempt-repository';
import type { RefundDone } from './card-settlement';
import { reversibleInCore } from './core-banking';
import type { CorePostings } from './core-postings';
import { textMail } from './mail-service';

// The reversal of a paid payment (decision 050): proposed by one finance operator, approved by another; then the core
// gives its money back under keys of our own (`{key}.x`), our books make the instalments owed again, and for a card
// payment Webpay refunds each store. Each step is one short database transaction around one call, and the
// `payment-reversals` job carries on whatever a crash or a silent core or Webpay left half way.

/** Why a payment cannot be reversed, in the words finance reads (the catalogue of this action). */
export const REVERSAL_REFUSALS = {
  not_found: 'Pago no encontrado',
  not_paid: 'Solo se anula un pago aplicado',
  reversing: 'El pago ya se está anulando',
  reversed: 'El pago ya fue anulado',
  posting: 'El core aún no registra todo este pago: se puede anular cuando lo registre',
  core_refused: 'El core no registró un abono de este pago: reenvíelo o devuélvalo desde Conciliación antes de anular',
  loan_transfer: 'El core no permite anular un pago a un crédito hecho por transferencia desde la cuenta vista: se anula en el core',
  card_not_applied: 'El cobro con tarjeta de este pago no está aplicado',
  core_refused_reversal: 'El core ya rechazó anular este pago (no devolvió nada): se anula en el core',
} as const;
export type ReversalRefusal = keyof typeof REVERSAL_REFUSALS;

/** What the core booked for a payment (its debit, or each card credit's booked try), and the Webpay charge applied. */
async function bookedOf(db: DbOrTx, trx: TransactionRow) {
  const all = await operationsOf(db, trx.idTransaccion);
  const ops = all.filter((o) => o.kind !== 'anulacion');
  const attempt = await committedAttemptOf(db, trx.idTransaccion);
  return { ops, attempt, reversedBefore: all.some((o) => o.kind === 'anulacion') };
}

/** The one rule of which payments may be reversed, checked at the proposal and again under the approval's lock. */
export function reversalRefusal(trx: TransactionRow | null, ops: CoreOperationRow[], attempt: { status: string } | null, reversedBefore = false): ReversalRefusal | null {
  if (!trx) return 'not_found';
  if (trx.status === 'reversing') return 'reversing';
  if (trx.status === 'reversed') return 'reversed';
  if (trx.status !== 'paid') return 'not_paid';
  // Its reversal keys are spent: a payment the core refused to give back is reversed by the core's staff.
  if (reversedBefore) return 'core_refused_reversal';
  // A card credit is one operation per store, across its tries: each must have one booked try.
  const credits = new Map<string, CoreOperationRow[]>();
  for (const op of ops) credits.set(firstKeyOf(op.key), [...(credits.get(firstKeyOf(op.key)) ?? []), op]);
  for (const tries of credits.values()) {
    if (tries.some((t) => t.status === 'booked')) continue;
    if (tries.some((t) => t.status === 'pending')) return 'posting';
    return 'core_refused';
  }
  const booked = ops.filter((o) => o.status === 'booked');
  if (booked.length === 0) return 'posting';
  if (booked.some((o) => !reversibleInCore(o))) return 'loan_transfer';
  if (trx.medioPago === 'WEBPAY' && !attempt) return 'card_not_applied';
  return null;
}

/** A payment checked against the rule, with what it would give back: what the proposal records. */
export async function reversiblePayment(db: DbOrTx, idTransaccion: string): Promise<{ ok: true; trx: TransactionRow; monto: number } | { ok: false; reason: ReversalRefusal }> {
  const trx = await findTransaction(db, idTransaccion);
  const { ops, attempt, reversedBefore } = trx ? await bookedOf(db, trx) : { ops: [], attempt: null, reversedBefore: false };
  const refusal = reversalRefusal(trx, ops, attempt, reversedBefore);
  if (refusal || !trx) return { ok: false, reason: refusal ?? 'not_found' };
  return { ok: true, trx, monto: trx.total };
}

/**
 * On approval, under the transaction's lock: checked again, moved `paid → reversing`, and one reversal written per
 * operation the core booked (`{key}.x`, due now). Nothing is asked of the core here: `advance` does it after commit.
 */
export async function startReversal(
  tx: Tx,
  idTransaccion: string,
  names: { operador: string; aprobadoPor: string; cambio: string; motivo: unknown },
  requestId: string,
): Promise<{ ok: true; result: Record<string, unknown> } | { ok: false; reason: ReversalRefusal }> {
  const trx = await lockTransaction(tx, idTransaccion);
  const { ops, attempt, reversedBefore } = trx ? await bookedOf(tx, trx) : { ops: [], attempt: null, reversedBefore: false };
  const refusal = reversalRefusal(trx, ops, attempt, reversedBefore);
  if (refusal || !trx) return { ok: false, reason: refusal ?? 'not_found' };
  expectMoved(await moveTransaction(tx, idTransaccion, 'paid', 'reversing'), 'transaction to reversing');
  const booked = ops.filter((o) => o.status === 'booked');
  for (const op of booked) {
    await insertOperation(tx, { key: `${op.key}.x`, idTransaccion, kind: 'anulacion', amount: op.amount, lines: op.lines, sourceAccount: op.sourceAccount });
  }
  await appendAudit(tx, { kind: 'pago.anulacion', requestId, detail: { idTransaccion, monto: trx.total, medioPago: trx.medioPago, ...names } });
  return { ok: true, result: { monto: trx.total, pasosCore: booked.length, ...(attempt && { ordenCompra: attempt.buyOrder }) } };
}

/** Where a reversal stands, as finance reads it (the approval's result and the transaction's view). */
export type ReversalStep =
  | { paso: 'core'; texto: string }
  | { paso: 'core_rechazo'; texto: string; motivo: string }
  | { paso: 'webpay'; texto: string }
  | { paso: 'webpay_rechazo'; texto: string; motivo: string }
  | { paso: 'anulado'; texto: string };


export interface ReversalDeps {
  postings: Pick<CorePostings, 'postReversal'>;
  refundDue(token: string, requestId: string | null): Promise<RefundDone | { outcome: 'not_due' }>;
  cooperative: string;
}

const reversalsOf = async (db: DbOrTx, idTransaccion: string) => (await operationsOf(db, idTransaccion)).filter((o) => o.kind === 'anulacion');

/** A failed try is followed by its next one: only the latest try of each reversal counts. */
function latestTries(ops: CoreOperationRow[]): CoreOperationRow[] {
  const latest = new Map<string, CoreOperationRow>();
  for (const op of ops) latest.set(firstKeyOf(op.key), op);
  return [...latest.values()];
}

/** Why the core refused a reversal, in words (its codes say it; the detail stays in the trail). */
export function coreRefusalText(detail: string): string {
  if (/balance.going.negative|insufficient/.test(detail)) return 'El core no puede anularlo: el producto ya no tiene ese saldo (el socio lo usó)';
  if (/transfer.transaction.update.not.allowed/.test(detail)) return 'El core no permite anular una transferencia';
  if (/no transaction/.test(detail)) return 'El core no encuentra el movimiento de este pago';
  return 'El core rechazó la anulación';
}

/** The buy order of the card charge a payment's approved reversal gives back, as its approval recorded it. */
async function reversedChargeOf(db: DbOrTx, idTransaccion: string): Promise<string | null> {
  const change = await latestApprovedChangeOn(db, 'anulacion_pago', idTransaccion);
  const buyOrder = change?.result?.ordenCompra;
  return typeof buyOrder === 'string' ? buyOrder : null;
}

/** Where a reversal stands, read only. */
export async function reversalStepOf(db: DbOrTx, idTransaccion: string): Promise<ReversalStep> {
  const trx = await findTransaction(db, idTransaccion);
  if (trx?.status === 'reversed') return { paso: 'anulado', texto: REVERSAL_STEP_WORDS.anulado };
  const live = latestTries(await reversalsOf(db, idTransaccion));
  const refused = live.find((o) => o.status === 'refused' || o.status === 'failed');
  if (refused) return { paso: 'core_rechazo', texto: REVERSAL_STEP_WORDS.core_rechazo, motivo: coreRefusalText(refused.lastError ?? '') };
  if (live.length === 0 || live.some((o) => o.status === 'pending')) return { paso: 'core', texto: REVERSAL_STEP_WORDS.core };
  const buyOrder = await reversedChargeOf(db, idTransaccion);
  const attempt = buyOrder ? await findAttempt(db, { buyOrder }) : null;
  if (attempt?.status === 'set_aside') return { paso: 'webpay_rechazo', texto: REVERSAL_STEP_WORDS.webpay_rechazo, motivo: '' };
  return { paso: 'webpay', texto: REVERSAL_STEP_WORDS.webpay };
}

/** A payment's reversal as the console shows it: who proposed and approved it, why, and where it stands. */
export async function reversalView(db: DbOrTx, idTransaccion: string) {
  const change = await latestChangeOn(db, 'anulacion_pago', idTransaccion);
  if (!change) return null;
  const step = change.status === 'aprobado' || change.status === 'fallido' ? await reversalStepOf(db, idTransaccion) : null;
  return {
    cambio: change.id,
    estadoCambio: change.status,
    propuestoPor: change.makerName,
    aprobadoPor: change.checkerName,
    motivo: typeof change.payload.motivo === 'string' ? change.payload.motivo : '',
    propuesto: change.createdAt,
    decidido: change.decidedAt,
    paso: step?.paso ?? null,
    texto: step?.texto ?? null,
    motivoPaso: step && 'motivo' in step && step.motivo ? step.motivo : null,
  };
}

export type PaymentReversals = ReturnType<typeof createPaymentReversals>;

export function createPaymentReversals(db: Db, deps: ReversalDeps) {
  /** Our books as the core's now are: the items reversed, the instalments owed again, the account credited back. */
  async function restoreBooks(tx: Tx, trx: TransactionRow): Promise<void> {
    const items = (await itemsOf(tx, trx.idTransaccion)).filter((i) => i.status === 'paid');
    const perProduct = new Map<string, { debt: number; credit: number }>();
    for (const item of items) {
      if (item.instalmentId) await restoreInstalment(tx, item.instalmentId, item.monto);
      const p = perProduct.get(item.productId) ?? { debt: 0, credit: 0 };
      if (item.instalmentId) p.debt += item.monto;
      else p.credit += item.monto;
      perProduct.set(item.productId, p);
      expectMoved(await moveItem(tx, item.id, 'reversed'), 'item to reversed');
    }
    // applyToProduct lowers debt and raises balances: the negatives undo what the payment did.
    for (const [productId, p] of perProduct) await applyToProduct(tx, productId, { debt: p.debt ? -p.debt : undefined, credit: p.credit ? -p.credit : undefined });
    if (trx.medioPago === 'CUENTA VISTA' && trx.accountId) {
      const account = await lockAccount(tx, trx.accountId);
      if (account) await setAccountBalance(tx, account.id, account.saldo + items.reduce((sum, i) => sum + i.monto, 0));
    }
  }

  /** The last step: the payment reversed, the member told by e-mail. */
  async function finish(tx: Tx, trx: TransactionRow, requestId: string | null): Promise<void> {
    if (!(await moveTransaction(tx, trx.idTransaccion, 'reversing', 'reversed'))) return;
    const member = await findMemberById(tx, trx.memberId);
    await appendAudit(tx, { kind: 'pago.anulado', rutMasked: member ? maskRut(member.rut) : null, requestId, detail: { idTransaccion: trx.idTransaccion, monto: trx.total } });
    if (member?.email) {
      const where = trx.medioPago === 'WEBPAY' ? 'a la tarjeta con que pagaste (Transbank lo refleja según tu banco)' : 'a tu cuenta vista';
      await enqueueMail(
        tx,
        textMail(member.email, `${deps.cooperative}: tu pago fue anulado`, [
          `${deps.cooperative} - Pago Online`,
          `Tu pago ${trx.idTransaccion} por ${formatClp(trx.total)} fue anulado por la cooperativa.`,
          `El dinero vuelve ${where}. Las cuotas que pagaste se deben de nuevo.`,
          'El comprobante de ese pago ya no vale: su verificación dice que fue anulado. Si no lo esperabas, contáctanos.',
        ]),
      );
    }
  }

  /**
   * Carries a reversal one step further, each step outside any database transaction but its own: the core's
   * reversals still pending are sent; once all are booked our books follow (and a card charge is marked to be
   * refunded); then Webpay refunds; then the payment is reversed. Answers where it stands.
   */
  async function advance(idTransaccion: string, requestId: string | null): Promise<ReversalStep> {
    for (const op of await reversalsOf(db, idTransaccion)) if (op.status === 'pending') await deps.postings.postReversal(op);
    const live = latestTries(await reversalsOf(db, idTransaccion));
    if (live.length > 0 && live.every((o) => o.status === 'refused')) {
      // The core gave nothing back: the payment is applied, as the core's books say; nothing is left half done.
      await db.transaction(async (tx) => {
        if (await moveTransaction(tx, idTransaccion, 'reversing', 'paid')) await appendAudit(tx, { kind: 'pago.anulacion.rechazada.core', requestId, detail: { idTransaccion, claves: live.map((o) => o.key) } });
      });
    }
    if (live.some((o) => o.status !== 'booked')) return reversalStepOf(db, idTransaccion);

    const token = await db.transaction(async (tx): Promise<string | null> => {
      const trx = await lockTransaction(tx, idTransaccion);
      if (!trx || trx.status !== 'reversing') return null;
      if ((await itemsOf(tx, idTransaccion)).some((i) => i.status === 'paid')) {
        await restoreBooks(tx, trx);
        await appendAudit(tx, { kind: 'pago.anulacion.core', requestId, detail: { idTransaccion, claves: live.map((o) => o.key) } });
      }
      if (trx.medioPago !== 'WEBPAY') {
        await finish(tx, trx, requestId);
        return null;
      }
      // The charge this reversal gives back is the one applied at its approval (a set-aside second charge is not).
      const buyOrder = await reversedChargeOf(tx, idTransaccion);
      const attempt = buyOrder ? await lockAttempt(tx, { buyOrder }) : null;
      if (!attempt?.token) return null;
      if (attempt.status === 'committed') await moveAttempt(tx, { token: attempt.token }, 'committed', 'refund_due');
      if (attempt.status === 'refunded') {
        await finish(tx, trx, requestId);
        return null;
      }
      return attempt.status === 'committed' || attempt.status === 'refund_due' ? attempt.token : null;
    });
    if (token) {
      const done = await deps.refundDue(token, requestId);
      if (done.outcome === 'refunded' || done.outcome === 'not_due') {
        await db.transaction(async (tx) => {
          const trx = await lockTransaction(tx, idTransaccion);
          const buyOrder = await reversedChargeOf(tx, idTransaccion);
          const attempt = buyOrder ? await lockAttempt(tx, { buyOrder }) : null;
          if (trx?.status === 'reversing' && attempt?.status === 'refunded') await finish(tx, trx, requestId);
        });
      }
      if (done.outcome === 'refused') return { paso: 'webpay_rechazo', texto: REVERSAL_STEP_WORDS.webpay_rechazo, motivo: done.motivo };
    }
    return reversalStepOf(db, idTransaccion);
  }

  return {
    advance,

    /** The scheduler's `payment-reversals`: every reversal under way, one step further each. */
    async advanceAll(limit = 50): Promise<void> {
      for (const id of await reversingTransactions(db, limit)) await advance(id, null);
    },
  };
}
