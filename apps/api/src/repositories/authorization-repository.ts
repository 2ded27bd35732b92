import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { authorizations, members } from '../db/schema';

export type AuthorizationRow = typeof authorizations.$inferSelect;
/** 'used' when it paid; 'expired' when it was spent or superseded without paying. */
export type AuthorizationOutcome = 'used' | 'expired';

/** Expires the transaction's unanswered challenge or push: a new request supersedes it. */
export async function supersedePending(tx: Tx, idTransaccion: string): Promise<void> {
  await tx
    .update(authorizations)
    .set({ status: 'expired', decidedAt: sql`now()` })
    .where(and(eq(authorizations.idTransaccion, idTransaccion), eq(authorizations.status, 'pending')));
}

export async function insertAuthorization(
  tx: Tx,
  values: { idTransaccion: string; memberId: string; factor: 1 | 2; cells?: string[]; amount: number; validSeconds: number },
): Promise<void> {
  const { validSeconds, ...row } = values;
  await tx.insert(authorizations).values({ ...row, expiresAt: sql`now() + make_interval(secs => ${validSeconds})` });
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

export async function decideAuthorization(tx: Tx, id: string, status: AuthorizationOutcome): Promise<void> {
  await tx.update(authorizations).set({ status, decidedAt: sql`now()` }).where(eq(authorizations.id, id));
}

/** The pending, unexpired pushes (factor 2) of the member with this RUT, oldest first. */
export function pendingPushesOf(db: DbOrTx, rut: string) {
  return db
    .select({
      id: authorizations.id,
      amount: authorizations.amount,
      secondsLeft: sql<number>`greatest(0, floor(extract(epoch from ${authorizations.expiresAt} - now())))::int`,
    })
    .from(authorizations)
    .innerJoin(members, eq(members.id, authorizations.memberId))
    .where(and(eq(members.rut, rut), eq(authorizations.factor, 2), eq(authorizations.status, 'pending'), sql`${authorizations.expiresAt} > now()`))
    .orderBy(asc(authorizations.createdAt));
}

/** Approves or rejects a pending, unexpired push of this RUT; false when there is none. */
export async function decidePush(db: DbOrTx, rut: string, id: string, approve: boolean): Promise<boolean> {
  const rows = await db
    .update(authorizations)
    .set({ status: approve ? 'approved' : 'rejected', decidedAt: sql`now()` })
    .where(
      and(
        eq(authorizations.id, id),
        eq(authorizations.factor, 2),
        eq(authorizations.status, 'pending'),
        sql`${authorizations.expiresAt} > now()`,
        sql`${authorizations.memberId} = (select id from members where rut = ${rut})`,
      ),
    )
    .returning({ id: authorizations.id });
  return rows.length === 1;
}

/** A transaction's challenges and pushes, oldest first, without their cells. */
export function authorizationsOf(db: DbOrTx, idTransaccion: string) {
  return db
    .select({ factor: authorizations.factor, status: authorizations.status, createdAt: authorizations.createdAt, decidedAt: authorizations.decidedAt })
    .from(authorizations)
    .where(eq(authorizations.idTransaccion, idTransaccion))
    .orderBy(asc(authorizations.createdAt));
}
