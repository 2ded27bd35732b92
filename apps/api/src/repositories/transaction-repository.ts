import type { Pago } from '@pago/domain/schemas/call-consultar-pago';
import { VERIFICATION_CODE_LENGTH, verificationCodeFrom } from '@pago/domain/voucher-verification';
import { and, asc, count, desc, eq, exists, inArray, ne, notExists, or, sql, sum, type SQL } from 'drizzle-orm';
import { checkedFrom, isFinal, ITEM_MOVES, TRANSACTION_MOVES, type ItemStatus, type TransactionStatus } from '@pago/domain/payment-states';
import { randomBytes } from 'node:crypto';
import type { DbOrTx, Tx } from '../db/client';
import { authorizationNumbers, members, products, sessions, transactionItems, transactions, vouchers, webpayAttempts } from '../db/schema';
import { liveCondition } from './session-repository';
import { reopenDaysOf } from './day-close-repository';
import { TRANSACTION_WORDS } from '@pago/domain/state-words';

export type TransactionRow = typeof transactions.$inferSelect;
export type ItemRow = typeof transactionItems.$inferSelect;
export type NewItem = Omit<typeof transactionItems.$inferInsert, 'idTransaccion' | 'status'>;

/** The next own-account authorisation number, six digits at least (as Transbank's), never given before. */
export async function nextAuthorizationNumber(tx: Tx): Promise<string> {
  // Both drivers answer { rows } (PGlite and node-postgres), as audit-repository.ts reads them.
  const { rows } = (await tx.execute(sql`select nextval(${authorizationNumbers.seqName}::regclass)::text as n`)) as unknown as { rows: { n: string }[] };
  return rows[0]!.n.padStart(6, '0');
}

/**
 * Which of `instalmentIds` are in a payment under way in any transaction but `except`: an own-account debit the core
 * is posting, or a Webpay form opened less than `webpayOpenSeconds` ago and not returned from (past that, the
 * reconciliation asks Webpay and settles it). An abandoned selection holds nothing.
 */
export async function instalmentsInOpenPayments(db: DbOrTx, instalmentIds: readonly string[], webpayOpenSeconds: number, except?: string): Promise<Set<string>> {
  if (instalmentIds.length === 0) return new Set();
  const openForm = db
    .select({ one: sql`1` })
    .from(webpayAttempts)
    .where(
      and(
        eq(webpayAttempts.idTransaccion, transactions.idTransaccion),
        inArray(webpayAttempts.status, ['creating', 'pending']),
        sql`${webpayAttempts.createdAt} > now() - make_interval(secs => ${webpayOpenSeconds})`,
      ),
    );
  const rows = await db
    .selectDistinct({ instalmentId: transactionItems.instalmentId })
    .from(transactionItems)
    .innerJoin(transactions, eq(transactions.idTransaccion, transactionItems.idTransaccion))
    .where(
      and(
        inArray(transactionItems.instalmentId, [...instalmentIds]),
        except === undefined ? undefined : ne(transactions.idTransaccion, except),
        or(eq(transactions.status, 'posting'), and(eq(transactions.status, 'pending'), exists(openForm))),
      ),
    );
  return new Set(rows.flatMap((r) => (r.instalmentId ? [r.instalmentId] : [])));
}

/** Whether an instalment of `items` (transaction `idTransaccion`'s) is in another transaction's payment under way. */
export async function heldByAnotherPayment(db: DbOrTx, idTransaccion: string, items: readonly ItemRow[], webpayOpenSeconds: number): Promise<boolean> {
  const ids = items.flatMap((item) => (item.instalmentId ? [item.instalmentId] : []));
  return (await instalmentsInOpenPayments(db, ids, webpayOpenSeconds, idTransaccion)).size > 0;
}

/** A pending transaction and its frozen items, written together in the caller's database transaction. */
export async function createTransaction(tx: Tx, trx: Pick<typeof transactions.$inferInsert, 'idTransaccion' | 'sessionId' | 'memberId' | 'family' | 'total'>, items: NewItem[]): Promise<void> {
  await tx.insert(transactions).values(trx);
  await tx.insert(transactionItems).values(items.map((item) => ({ ...item, idTransaccion: trx.idTransaccion })));
}

/** The session's latest transaction (the one calls 4–6 act on), locked first in every payment's lock order. */
export async function lockLatestOfSession(tx: Tx, sessionId: string): Promise<TransactionRow | null> {
  const [row] = await tx.select().from(transactions).where(eq(transactions.sessionId, sessionId)).orderBy(desc(transactions.createdAt)).limit(1).for('update');
  return row ?? null;
}

export async function lockOfSession(tx: Tx, idTransaccion: string, sessionId: string): Promise<TransactionRow | null> {
  const [row] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.idTransaccion, idTransaccion), eq(transactions.sessionId, sessionId)))
    .for('update');
  return row ?? null;
}

export async function lockByHostTokenHash(tx: Tx, hostTokenHash: string): Promise<TransactionRow | null> {
  const [row] = await tx.select().from(transactions).where(eq(transactions.hostTokenHash, hostTokenHash)).for('update');
  return row ?? null;
}

export async function lockTransaction(tx: Tx, idTransaccion: string): Promise<TransactionRow | null> {
  const [row] = await tx.select().from(transactions).where(eq(transactions.idTransaccion, idTransaccion)).for('update');
  return row ?? null;
}

/** True while the login of this transaction is recent enough for a second factor (database time). */
export async function loginIsFresh(db: DbOrTx, idTransaccion: string, minutes: number): Promise<boolean> {
  const [row] = await db
    .select({ fresh: sql<boolean>`coalesce(${transactions.loginAt} > now() - make_interval(mins => ${minutes}), false)` })
    .from(transactions)
    .where(eq(transactions.idTransaccion, idTransaccion));
  return row?.fresh ?? false;
}

export async function recordLogin(tx: Tx, idTransaccion: string, payerRut: string, accountId: string): Promise<void> {
  await tx
    .update(transactions)
    .set({ payerRut, accountId, loginAt: sql`now()`, medioPago: 'CUENTA VISTA', updatedAt: sql`now()` })
    .where(eq(transactions.idTransaccion, idTransaccion));
}

export async function setHostToken(tx: Tx, idTransaccion: string, hostTokenHash: string): Promise<void> {
  await tx.update(transactions).set({ hostTokenHash, medioPago: 'WEBPAY', updatedAt: sql`now()` }).where(eq(transactions.idTransaccion, idTransaccion));
}

/**
 * The one way a transaction's state changes (TRANSACTION_MOVES): only from `from`, only where `which` matches (its id,
 * or a condition for a batch); a final state records when it settled (a reversed payment keeps when it was paid). Answers how many moved: none when it lost a race.
 */
/** A payment is settled once it ends or is paid; a reversal later keeps that instant. */
const settles = (to: TransactionStatus) => to === 'paid' || isFinal(TRANSACTION_MOVES, to);

export async function moveTransaction(
  db: DbOrTx,
  which: string | SQL,
  from: TransactionStatus | readonly TransactionStatus[],
  to: TransactionStatus,
  also: { medioPago?: string } = {},
): Promise<number> {
  const states = checkedFrom(TRANSACTION_MOVES, from, to);
  const moved = await db
    .update(transactions)
    .set({ ...also, status: to, updatedAt: sql`now()`, ...(settles(to) ? { settledAt: sql`coalesce(${transactions.settledAt}, now())` } : {}) })
    .where(and(typeof which === 'string' ? eq(transactions.idTransaccion, which) : which, inArray(transactions.status, states)))
    .returning({ id: transactions.idTransaccion });
  // A closed day whose payment changed is reopened, saying what changed (decision 049).
  if (moved.length > 0) await reopenDaysOf(db, moved.map((m) => m.id), `El pago ${moved[0]!.id.slice(0, 8)}… pasó a «${TRANSACTION_WORDS[to]}»`);
  return moved.length;
}

export function itemsOf(db: DbOrTx, idTransaccion: string): Promise<ItemRow[]> {
  return db
    .select()
    .from(transactionItems)
    .where(eq(transactionItems.idTransaccion, idTransaccion))
    .orderBy(asc(transactionItems.productId), asc(transactionItems.numeroCuota));
}

/** A transaction's lines with the number and family of the product each pays, for the operator's view. */
export function itemsWithProductOf(db: DbOrTx, idTransaccion: string) {
  return db
    .select({ item: transactionItems, numeroProducto: products.numeroProducto, family: products.family })
    .from(transactionItems)
    .innerJoin(products, eq(products.id, transactionItems.productId))
    .where(eq(transactionItems.idTransaccion, idTransaccion))
    .orderBy(asc(products.numeroProducto), asc(transactionItems.numeroCuota));
}

/** The numbers of the products a transaction pays, each once, in order. */
export async function productNumbersOf(db: DbOrTx, idTransaccion: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ numero: products.numeroProducto })
    .from(transactionItems)
    .innerJoin(products, eq(products.id, transactionItems.productId))
    .where(eq(transactionItems.idTransaccion, idTransaccion))
    .orderBy(asc(products.numeroProducto));
  return rows.map((r) => r.numero);
}

/**
 * The one way an item's state changes (ITEM_MOVES): a pending line paid, with its authorisation number, or left out;
 * a paid line reversed (decision 050).
 */
export async function moveItem(tx: Tx, itemId: string, to: Exclude<ItemStatus, 'pending'>, also: { authorizationCode?: string } = {}): Promise<number> {
  const from: ItemStatus = to === 'reversed' ? 'paid' : 'pending';
  checkedFrom(ITEM_MOVES, from, to);
  const moved = await tx
    .update(transactionItems)
    .set({ ...also, status: to })
    .where(and(eq(transactionItems.id, itemId), eq(transactionItems.status, from)))
    .returning({ id: transactionItems.id });
  return moved.length;
}

export async function findTransaction(db: DbOrTx, idTransaccion: string): Promise<TransactionRow | null> {
  const [row] = await db.select().from(transactions).where(eq(transactions.idTransaccion, idTransaccion));
  return row ?? null;
}

export async function voucherRowOf(db: DbOrTx, idTransaccion: string): Promise<{ payload: unknown; createdAt: Date } | null> {
  const [row] = await db.select({ payload: vouchers.payload, createdAt: vouchers.createdAt }).from(vouchers).where(eq(vouchers.idTransaccion, idTransaccion));
  return row ?? null;
}

export async function insertVoucher(tx: Tx, idTransaccion: string, pagos: Pago[]): Promise<void> {
  await tx.insert(vouchers).values({ idTransaccion, payload: pagos, verificationCode: verificationCodeFrom(randomBytes(VERIFICATION_CODE_LENGTH)) });
}

/** The voucher a verification code names, whoever asks, and who paid it (null for a card payment). */
export async function voucherByCode(db: DbOrTx, code: string): Promise<{ pagos: Pago[]; payerRut: string | null; status: TransactionStatus } | null> {
  const [row] = await db
    .select({ payload: vouchers.payload, payerRut: transactions.payerRut, status: transactions.status })
    .from(vouchers)
    .innerJoin(transactions, eq(transactions.idTransaccion, vouchers.idTransaccion))
    .where(eq(vouchers.verificationCode, code));
  return row ? { pagos: row.payload as Pago[], payerRut: row.payerRut, status: row.status } : null;
}

/** A paid transaction's voucher with its member's e-mail and RUT (an operator's resend). */
export async function voucherWithOwner(db: DbOrTx, idTransaccion: string): Promise<{ pagos: Pago[]; verificationCode: string | null; email: string | null; rut: string } | null> {
  const [row] = await db
    .select({ payload: vouchers.payload, verificationCode: vouchers.verificationCode, email: members.email, rut: members.rut })
    .from(vouchers)
    .innerJoin(transactions, eq(transactions.idTransaccion, vouchers.idTransaccion))
    .innerJoin(members, eq(members.id, transactions.memberId))
    .where(eq(vouchers.idTransaccion, idTransaccion));
  return row ? { pagos: row.payload as Pago[], verificationCode: row.verificationCode, email: row.email, rut: row.rut } : null;
}

/** The voucher written for a paid transaction. */
export async function voucherOf(db: DbOrTx, idTransaccion: string): Promise<Pago[] | null> {
  const [row] = await db.select({ payload: vouchers.payload }).from(vouchers).where(eq(vouchers.idTransaccion, idTransaccion));
  return row ? (row.payload as Pago[]) : null;
}

/** A transaction of this session only, with its voucher when it has one: anyone else's id is not found. */
export async function ofSessionWithVoucher(
  db: DbOrTx,
  idTransaccion: string,
  sessionId: string,
): Promise<{ status: string; pagos: Pago[] | null; verificationCode: string | null } | null> {
  const [row] = await db
    .select({ status: transactions.status, payload: vouchers.payload, verificationCode: vouchers.verificationCode })
    .from(transactions)
    .leftJoin(vouchers, eq(vouchers.idTransaccion, transactions.idTransaccion))
    .where(and(eq(transactions.idTransaccion, idTransaccion), eq(transactions.sessionId, sessionId)));
  return row ? { status: row.status, pagos: (row.payload as Pago[] | null) ?? null, verificationCode: row.verificationCode } : null;
}

/** The session's latest paid transaction (call 8 mails its voucher). */
export async function latestPaidOfSession(db: DbOrTx, sessionId: string): Promise<string | null> {
  const [row] = await db
    .select({ idTransaccion: transactions.idTransaccion })
    .from(transactions)
    .where(and(eq(transactions.sessionId, sessionId), eq(transactions.status, 'paid')))
    .orderBy(desc(transactions.settledAt))
    .limit(1);
  return row?.idTransaccion ?? null;
}

/**
 * Expires the pending transactions whose session has ended and that have no Webpay form open: nobody can pay them
 * any more (every call of a payment needs the session). Answers how many.
 */
export function expireWithoutSession(db: DbOrTx, timeoutMinutes: number): Promise<number> {
  return moveTransaction(
    db,
    and(
      notExists(db.select({ one: sql`1` }).from(sessions).where(and(eq(sessions.id, transactions.sessionId), liveCondition(timeoutMinutes)))),
      notExists(db.select({ one: sql`1` }).from(webpayAttempts).where(and(eq(webpayAttempts.idTransaccion, transactions.idTransaccion), inArray(webpayAttempts.status, ['creating', 'pending'])))),
    )!,
    'pending',
    'expired',
  );
}

/** A payment as the operator's lists show it: its id, family, total, state, method and when it was made and settled. */
export const paymentColumns = {
  idTransaccion: transactions.idTransaccion,
  familia: transactions.family,
  total: transactions.total,
  estado: transactions.status,
  medioPago: transactions.medioPago,
  creada: transactions.createdAt,
  pagada: transactions.settledAt,
};

/** A member's latest transactions, newest first, and whether each has a voucher (an operator's view). */
export function latestOfMember(db: DbOrTx, memberId: string, limit: number) {
  return db
    .select({
      ...paymentColumns,
      comprobante: vouchers.id,
    })
    .from(transactions)
    .leftJoin(vouchers, eq(vouchers.idTransaccion, transactions.idTransaccion))
    .where(eq(transactions.memberId, memberId))
    .orderBy(desc(transactions.createdAt))
    .limit(limit);
}

/** The payments paid on a business day (Santiago's, yyyy-mm-dd), counted and summed by method and family. */
export async function paidOfDayByMethod(db: DbOrTx, isoDay: string) {
  const rows = await db
    .select({ medioPago: transactions.medioPago, familia: transactions.family, cantidad: count(), monto: sum(transactions.total) })
    .from(transactions)
    .where(and(eq(transactions.status, 'paid'), sql`(${transactions.settledAt} at time zone 'America/Santiago')::date = ${isoDay}::date`))
    .groupBy(transactions.medioPago, transactions.family)
    .orderBy(transactions.medioPago, transactions.family);
  return rows.map((p) => ({ medioPago: p.medioPago, familia: p.familia, cantidad: Number(p.cantidad), monto: Number(p.monto ?? 0) }));
}

/** Payments whose reversal is under way (decision 050): what the `payment-reversals` job carries on. */
export async function reversingTransactions(db: DbOrTx, limit: number): Promise<string[]> {
  const rows = await db.select({ id: transactions.idTransaccion }).from(transactions).where(eq(transactions.status, 'reversing')).orderBy(transactions.updatedAt).limit(limit);
  return rows.map((r) => r.id);
}
