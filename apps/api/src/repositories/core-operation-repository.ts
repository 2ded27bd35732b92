import { and, asc, count, eq, inArray, isNotNull, lte, min, ne, or, sql } from 'drizzle-orm';
import { assertMove, CORE_OPERATION_MOVES, type CoreOperationKind, type CoreOperationStatus } from '@pago/domain/payment-states';
import { CORE_OPERATION_WORDS } from '@pago/domain/state-words';
import type { DbOrTx, Tx } from '../db/client';
import { reopenDaysOf } from './day-close-repository';
import { coreOperations, transactionItems, transactions, type CoreLineRow } from '../db/schema';

export type CoreOperationRow = typeof coreOperations.$inferSelect;

/**
 * A card credit's tries share its first key (the store's buy order): the next ones are `KEY.r1`, `KEY.r2`…, whether
 * the postings job opened them after a failure the core recorded or an operator re-posted a refusal (decision 043).
 */
export const firstKeyOf = (key: string) => key.replace(/(\.r\d+)+$/, '');
/** Whether another try of the same card credit is waiting for the core or was booked. */
const hasLiveRepost = sql`exists (select 1 from core_operations r where r.key <> ${coreOperations.key} and (r.key = regexp_replace(${coreOperations.key}, '([.]r[0-9]+)+$', '') or starts_with(r.key, regexp_replace(${coreOperations.key}, '([.]r[0-9]+)+$', '') || '.r')) and r.status in ('pending', 'booked'))`;
export type { CoreOperationKind } from '@pago/domain/payment-states';

export async function insertOperation(
  tx: Tx,
  op: { key: string; idTransaccion: string; kind: CoreOperationKind; amount: number; lines: CoreLineRow[]; sourceAccount?: string | null; firstTryAfterSeconds?: number },
): Promise<CoreOperationRow> {
  const [row] = await tx.insert(coreOperations).values({
    key: op.key,
    idTransaccion: op.idTransaccion,
    kind: op.kind,
    amount: op.amount,
    lines: op.lines,
    sourceAccount: op.sourceAccount ?? null,
    nextAttemptAt: sql`now() + make_interval(secs => ${op.firstTryAfterSeconds ?? 0})`,
  }).returning();
  return row!;
}

export async function lockOperation(tx: Tx, key: string): Promise<CoreOperationRow | null> {
  const [row] = await tx.select().from(coreOperations).where(eq(coreOperations.key, key)).for('update');
  return row ?? null;
}

/** The transaction's own-account debits, oldest first: the last one is the try call 6 acts on. */
export function ownAccountTriesOf(db: DbOrTx, idTransaccion: string): Promise<CoreOperationRow[]> {
  return db
    .select()
    .from(coreOperations)
    .where(and(eq(coreOperations.idTransaccion, idTransaccion), eq(coreOperations.kind, 'cuenta_vista')))
    .orderBy(asc(coreOperations.createdAt));
}

export function operationsOf(db: DbOrTx, idTransaccion: string): Promise<CoreOperationRow[]> {
  return db.select().from(coreOperations).where(eq(coreOperations.idTransaccion, idTransaccion)).orderBy(asc(coreOperations.createdAt));
}

/**
 * The one way a core operation's status changes: the move must be in CORE_OPERATION_MOVES, the row must still be in
 * `from` (the WHERE says so), and a row that was not there (another replica moved it first) throws, so the caller's
 * database transaction writes nothing else.
 */
export async function moveOperation(
  tx: Tx,
  key: string,
  from: CoreOperationStatus,
  to: CoreOperationStatus,
  fields: { coreRefs?: Record<string, string>; lastError?: string } = {},
): Promise<void> {
  assertMove(CORE_OPERATION_MOVES, from, to);
  const moved = await tx
    .update(coreOperations)
    .set({
      status: to,
      ...(fields.coreRefs && { coreRefs: fields.coreRefs }),
      ...(fields.lastError !== undefined && { lastError: fields.lastError.slice(0, 500) }),
      ...(to === 'booked' && { bookedAt: sql`now()` }),
      attempts: sql`${coreOperations.attempts} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(coreOperations.key, key), eq(coreOperations.status, from)))
    .returning({ key: coreOperations.key, idTransaccion: coreOperations.idTransaccion });
  if (moved.length !== 1) throw new Error(`core operation ${key} was not ${from}: not moved to ${to}`);
  // A closed day whose payment's posting changed (a late posting, a refusal) is reopened, saying what (decision 049).
  await reopenDaysOf(tx, [moved[0]!.idTransaccion], `La operación del core ${key} pasó a «${CORE_OPERATION_WORDS[to]}»`);
}

/** The core gave no answer: asked again after a back-off that doubles from 5 s up to 10 minutes. */
export async function recordUnanswered(db: DbOrTx, key: string, error: string): Promise<void> {
  await db
    .update(coreOperations)
    .set({
      attempts: sql`${coreOperations.attempts} + 1`,
      lastError: error.slice(0, 500),
      nextAttemptAt: sql`now() + make_interval(secs => least(600, 5 * power(2, least(${coreOperations.attempts}, 10))))`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(coreOperations.key, key), eq(coreOperations.status, 'pending')));
}

/**
 * Claims the next pending operation due: its next try moves `leaseSeconds` ahead, so no other replica takes it
 * while this one calls the core (outside any database transaction); a replica that dies leaves it to the next lease.
 */
export async function claimDue(tx: Tx, leaseSeconds: number): Promise<CoreOperationRow | null> {
  const [row] = await tx
    .select()
    .from(coreOperations)
    .where(and(eq(coreOperations.status, 'pending'), lte(coreOperations.nextAttemptAt, sql`now()`)))
    .orderBy(asc(coreOperations.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!row) return null;
  await tx
    .update(coreOperations)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(eq(coreOperations.key, row.key));
  return row;
}

/** Postings not yet acknowledged by the core: how many, and the oldest one's age in seconds. */
export async function pendingStats(db: DbOrTx): Promise<{ pending: number; oldestSeconds: number; refused: number }> {
  const [p] = await db
    .select({ n: count(), oldest: min(coreOperations.createdAt) })
    .from(coreOperations)
    .where(eq(coreOperations.status, 'pending'));
  const [r] = await db
    .select({ n: count() })
    .from(coreOperations)
    .where(and(eq(coreOperations.status, 'refused'), eq(coreOperations.kind, 'abono_webpay'), sql`not ${hasLiveRepost}`));
  const oldest = p?.oldest ? (Date.now() - new Date(p.oldest).getTime()) / 1000 : 0;
  return { pending: Number(p?.n ?? 0), oldestSeconds: Math.max(0, oldest), refused: Number(r?.n ?? 0) };
}

/** Instalment amounts held by other transactions whose own-account debit is at the core right now. */
export async function reservedByPosting(tx: Tx, instalmentIds: string[], exceptTransaction: string): Promise<Map<string, number>> {
  if (instalmentIds.length === 0) return new Map();
  const rows = await tx
    .select({ instalmentId: transactionItems.instalmentId, monto: sql<string>`sum(${transactionItems.monto})` })
    .from(transactionItems)
    .innerJoin(transactions, eq(transactions.idTransaccion, transactionItems.idTransaccion))
    .where(and(eq(transactions.status, 'posting'), ne(transactions.idTransaccion, exceptTransaction), inArray(transactionItems.instalmentId, instalmentIds)))
    .groupBy(transactionItems.instalmentId);
  return new Map(rows.map((r) => [r.instalmentId!, Number(r.monto)]));
}

/** An instalment by its product and number, as a load names it. */
export const instalmentKey = (productId: string, numeroCuota: number) => `${productId}:${numeroCuota}`;

/**
 * What the core's extract taken at `corte` cannot show yet: money moved here whose posting the core acknowledged
 * after the cut, or not yet (a card credit still in the outbox). Per instalment (instalmentKey), per product and per
 * debited account number.
 */
export async function unreflectedSince(db: DbOrTx, corte: Date): Promise<{
  instalments: Map<string, number>;
  products: Map<string, { debt: number; credit: number }>;
  accounts: Map<string, number>;
}> {
  const notReflected = or(
    and(eq(coreOperations.status, 'booked'), isNotNull(coreOperations.bookedAt), sql`${coreOperations.bookedAt} > ${corte.toISOString()}::timestamptz`),
    and(eq(coreOperations.status, 'pending'), eq(coreOperations.kind, 'abono_webpay')),
  );
  const items = await db
    .select({ instalmentId: transactionItems.instalmentId, productId: transactionItems.productId, numeroCuota: transactionItems.numeroCuota, monto: transactionItems.monto, lines: coreOperations.lines })
    .from(coreOperations)
    .innerJoin(transactionItems, and(eq(transactionItems.idTransaccion, coreOperations.idTransaccion), eq(transactionItems.status, 'paid')))
    .where(notReflected);
  const instalments = new Map<string, number>();
  const products = new Map<string, { debt: number; credit: number }>();
  for (const item of items) {
    // An abono_webpay operation carries one product: only that product's items are its own.
    if (!item.lines.some((l) => l.productId === item.productId)) continue;
    const p = products.get(item.productId) ?? { debt: 0, credit: 0 };
    if (item.instalmentId) {
      const at = instalmentKey(item.productId, item.numeroCuota);
      instalments.set(at, (instalments.get(at) ?? 0) + item.monto);
      p.debt += item.monto;
    } else p.credit += item.monto;
    products.set(item.productId, p);
  }
  const debits = await db
    .select({ account: coreOperations.sourceAccount, amount: sql<string>`sum(${coreOperations.amount})` })
    .from(coreOperations)
    .where(and(notReflected, eq(coreOperations.kind, 'cuenta_vista')))
    .groupBy(coreOperations.sourceAccount);
  const accounts = new Map(debits.filter((d) => d.account).map((d) => [d.account!, Number(d.amount)]));
  return { instalments, products, accounts };
}

/** The operations written on a business day (yyyymmdd, Santiago), whatever became of them. */
export function operationsOfDay(db: DbOrTx, fecha: string): Promise<CoreOperationRow[]> {
  return db
    .select()
    .from(coreOperations)
    .where(sql`(${coreOperations.createdAt} at time zone 'America/Santiago')::date = to_date(${fecha}, 'YYYYMMDD')`)
    .orderBy(asc(coreOperations.createdAt));
}

/** Card credits the core refused and nobody re-posted yet: what an operator settles (re-post or refund). */
export function refusedCredits(db: DbOrTx) {
  return db
    .select()
    .from(coreOperations)
    .where(and(eq(coreOperations.status, 'refused'), eq(coreOperations.kind, 'abono_webpay'), sql`not ${hasLiveRepost}`))
    .orderBy(asc(coreOperations.createdAt))
    .limit(500);
}

export type RepostCheck = { ok: true; op: CoreOperationRow; nextKey: string } | { ok: false; reason: 'not_found' | 'not_refused' | 'reposted' };

/**
 * Whether a refused card credit may be sent to the core again, and under which key: the credit's next try, since the
 * core keeps its refusal under the old key and would answer it again. Locks the row inside a transaction.
 */
export async function checkRepost(db: DbOrTx, key: string): Promise<RepostCheck> {
  const query = db.select().from(coreOperations).where(eq(coreOperations.key, key));
  const [op] = 'rollback' in db ? await query.for('update') : await query;
  if (!op) return { ok: false, reason: 'not_found' };
  if (op.kind !== 'abono_webpay' || op.status !== 'refused') return { ok: false, reason: 'not_refused' };
  const tries = await triesOf(db, key);
  if (tries.some((r) => r.status === 'pending' || r.status === 'booked')) return { ok: false, reason: 'reposted' };
  return { ok: true, op, nextKey: nextTryKey(key, tries) };
}

/** Every try of the card credit `key` belongs to (its first key and each `.rN`), whatever became of them. */
export function triesOf(db: DbOrTx, key: string): Promise<Pick<CoreOperationRow, 'key' | 'status'>[]> {
  const first = firstKeyOf(key);
  return db
    .select({ key: coreOperations.key, status: coreOperations.status })
    .from(coreOperations)
    .where(or(eq(coreOperations.key, first), sql`starts_with(${coreOperations.key}, ${`${first}.r`})`));
}

/** The key of a card credit's next try: `KEY.rN`, N one more than the tries after the first. */
export const nextTryKey = (key: string, tries: readonly unknown[]) => `${firstKeyOf(key)}.r${tries.length}`;

/** The booked reversals (decision 050) of these transactions' operations, whatever day they were made. */
export function bookedReversalsOf(db: DbOrTx, idTransacciones: string[]): Promise<CoreOperationRow[]> {
  if (idTransacciones.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(coreOperations)
    .where(and(eq(coreOperations.kind, 'anulacion'), eq(coreOperations.status, 'booked'), inArray(coreOperations.idTransaccion, idTransacciones)));
}
