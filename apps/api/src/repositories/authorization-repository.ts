import { AUTHORIZATION_MOVES, checkedFrom, type AuthorizationStatus } from '@pago/domain/payment-states';
import { and, asc, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { authorizations } from '../db/schema';

export type AuthorizationRow = typeof authorizations.$inferSelect;

/**
 * The one way a second factor's state changes (AUTHORIZATION_MOVES): only from `from`, only where `which` matches (its
 * id, or a condition); the moment of the first decision is kept (a phone's). Answers how many moved.
 */
export async function moveAuthorization(
  tx: Tx,
  which: string | SQL,
  from: AuthorizationStatus | readonly AuthorizationStatus[],
  to: AuthorizationStatus,
  also: { deviceId?: string; signature?: string } = {},
): Promise<number> {
  const states = checkedFrom(AUTHORIZATION_MOVES, from, to);
  const moved = await tx
    .update(authorizations)
    .set({ ...also, status: to, decidedAt: sql`coalesce(${authorizations.decidedAt}, now())` })
    .where(and(typeof which === 'string' ? eq(authorizations.id, which) : which, inArray(authorizations.status, states)))
    .returning({ id: authorizations.id });
  return moved.length;
}

/** Expires the transaction's unanswered challenge or push: a new request supersedes it. */
export async function supersedePending(tx: Tx, idTransaccion: string): Promise<void> {
  await moveAuthorization(tx, eq(authorizations.idTransaccion, idTransaccion), 'pending', 'expired');
}

export async function insertAuthorization(
  tx: Tx,
  values: {
    idTransaccion: string;
    memberId: string;
    factor: 1 | 2;
    cells?: string[];
    amount: number;
    validSeconds: number;
    push?: AuthorizationRow['push'];
    nonce?: string;
  },
): Promise<{ id: string; expiresAt: Date }> {
  const { validSeconds, ...row } = values;
  const [inserted] = await tx
    .insert(authorizations)
    .values({ ...row, expiresAt: sql`now() + make_interval(secs => ${validSeconds})` })
    .returning({ id: authorizations.id, expiresAt: authorizations.expiresAt });
  return inserted!;
}

/** The transaction's latest challenge or push, locked, whether it has expired and the seconds it has left (database time). */
export async function lockLatestOfTransaction(tx: Tx, idTransaccion: string): Promise<{ auth: AuthorizationRow; expired: boolean; secondsLeft: number } | null> {
  const [row] = await tx
    .select({
      auth: authorizations,
      expired: sql<boolean>`${authorizations.expiresAt} < now()`,
      secondsLeft: sql<number>`greatest(0, ceil(extract(epoch from ${authorizations.expiresAt} - now())))::int`,
    })
    .from(authorizations)
    .where(eq(authorizations.idTransaccion, idTransaccion))
    .orderBy(desc(authorizations.createdAt))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** How many coordinate challenges (factor 1) the transaction was given since `since` (its login). */
export function countChallengesSince(tx: Tx, idTransaccion: string, since: Date): Promise<number> {
  return tx.$count(authorizations, and(eq(authorizations.idTransaccion, idTransaccion), eq(authorizations.factor, 1), gte(authorizations.createdAt, since)));
}

/** A transaction's challenges and pushes, oldest first, without their cells. */
export function authorizationsOf(db: DbOrTx, idTransaccion: string) {
  return db
    .select({ factor: authorizations.factor, status: authorizations.status, amount: authorizations.amount, createdAt: authorizations.createdAt, decidedAt: authorizations.decidedAt })
    .from(authorizations)
    .where(eq(authorizations.idTransaccion, idTransaccion))
    .orderBy(asc(authorizations.createdAt));
}

/**
 * The cells of the member's latest coordinate challenge, in any session or transaction, unless it was answered
 * right ('used'): they are asked again until they are, so abandoning a challenge never buys other cells.
 */
export async function cellsStillAskedOf(tx: Tx, memberId: string): Promise<string[] | null> {
  const [row] = await tx
    .select({ cells: authorizations.cells, status: authorizations.status })
    .from(authorizations)
    .where(and(eq(authorizations.memberId, memberId), eq(authorizations.factor, 1)))
    .orderBy(desc(authorizations.createdAt))
    .limit(1);
  return row && row.status !== 'used' && row.cells?.length ? row.cells : null;
}

/** The factor whose authorisation paid the transaction (1 the coordinate card, 2 the mobile authoriser); null for none. */
export async function usedFactorOf(db: DbOrTx, idTransaccion: string): Promise<1 | 2 | null> {
  const [row] = await db
    .select({ factor: authorizations.factor })
    .from(authorizations)
    .where(and(eq(authorizations.idTransaccion, idTransaccion), eq(authorizations.status, 'used')))
    .limit(1);
  return row?.factor === 1 || row?.factor === 2 ? row.factor : null;
}
