import { checkedFrom, OPERATOR_CHANGE_MOVES, type OperatorChangeStatus } from '@pago/domain/payment-states';
import { and, asc, desc, eq, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { operatorChanges } from '../db/schema';

export type ChangeRow = typeof operatorChanges.$inferSelect;

/** A new proposal, lapsing after `hours`; null when one of its kind and target is already pending. */
export async function insertChange(
  tx: Tx,
  values: Pick<typeof operatorChanges.$inferInsert, 'kind' | 'target' | 'payload' | 'makerSubject' | 'makerName'>,
  hours: number,
): Promise<ChangeRow | null> {
  const [change] = await tx
    .insert(operatorChanges)
    .values({ ...values, expiresAt: sql`now() + make_interval(hours => ${hours})` })
    .onConflictDoNothing()
    .returning();
  return change ?? null;
}

export async function pendingChangeOf(db: DbOrTx, kind: string, target: string): Promise<ChangeRow | null> {
  const [row] = await db.select().from(operatorChanges).where(and(eq(operatorChanges.kind, kind), eq(operatorChanges.target, target), eq(operatorChanges.status, 'pendiente')));
  return row ?? null;
}

export async function findChange(db: DbOrTx, id: string): Promise<ChangeRow | null> {
  const [row] = await db.select().from(operatorChanges).where(eq(operatorChanges.id, id));
  return row ?? null;
}

/** A change locked for its decision, and whether its time ran out (the database's clock, as expires_at was set). */
export async function lockChange(tx: Tx, id: string): Promise<{ change: ChangeRow; lapsed: boolean } | null> {
  const [row] = await tx
    .select({ change: operatorChanges, lapsed: sql<boolean>`${operatorChanges.expiresAt} < now()` })
    .from(operatorChanges)
    .where(eq(operatorChanges.id, id))
    .for('update');
  return row ?? null;
}

/**
 * The one way a change's state changes (OPERATOR_CHANGE_MOVES): only from `from`, only where `which` matches (its id,
 * or a condition), stamped with when it was decided. Answers the rows it moved.
 */
export async function moveOperatorChange(
  db: DbOrTx,
  which: string | SQL,
  from: OperatorChangeStatus,
  to: OperatorChangeStatus,
  also: { checkerSubject?: string; checkerName?: string; result?: Record<string, unknown> } = {},
): Promise<ChangeRow[]> {
  const states = checkedFrom(OPERATOR_CHANGE_MOVES, from, to);
  return db
    .update(operatorChanges)
    .set({ ...also, status: to, decidedAt: sql`now()` })
    .where(and(typeof which === 'string' ? eq(operatorChanges.id, which) : which, inArray(operatorChanges.status, states)))
    .returning();
}

/** What an approved change set off after it committed (a refund Webpay made), added to its result. */
export function recordChangeResult(tx: Tx, id: string, result: Record<string, unknown>): Promise<ChangeRow[]> {
  return tx
    .update(operatorChanges)
    .set({ result })
    .where(and(eq(operatorChanges.id, id), eq(operatorChanges.status, 'aprobado')))
    .returning();
}

/**
 * The approved manual refund of this Webpay buy order whose outcome Webpay has not given yet (no `devolucion` in its
 * result, or only that Webpay did not answer), locked; null when none waits for it.
 */
export async function lockRefundAwaitingWebpay(tx: Tx, buyOrder: string, unanswered: string): Promise<ChangeRow | null> {
  const [row] = await tx
    .select()
    .from(operatorChanges)
    .where(
      and(
        eq(operatorChanges.kind, 'devolucion_webpay'),
        eq(operatorChanges.target, buyOrder),
        eq(operatorChanges.status, 'aprobado'),
        sql`coalesce(${operatorChanges.result}->>'devolucion', ${unanswered}) = ${unanswered}`,
      ),
    )
    .orderBy(desc(operatorChanges.decidedAt))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** Lapses the pending changes whose time ran out; answers them. */
export function lapseExpired(db: DbOrTx): Promise<ChangeRow[]> {
  return moveOperatorChange(db, lt(operatorChanges.expiresAt, sql`now()`), 'pendiente', 'vencido');
}

/** Pending changes first (oldest first), then the latest `limit` decided ones. */
export async function listChanges(db: DbOrTx, limit: number): Promise<ChangeRow[]> {
  const pending = await db.select().from(operatorChanges).where(eq(operatorChanges.status, 'pendiente')).orderBy(asc(operatorChanges.createdAt));
  const decided = await db.select().from(operatorChanges).where(ne(operatorChanges.status, 'pendiente')).orderBy(desc(operatorChanges.decidedAt)).limit(limit);
  return [...pending, ...decided];
}

/** The latest change of `kind` on `target`, whatever its state; null when none was proposed. */
export async function latestChangeOn(db: DbOrTx, kind: ChangeRow['kind'], target: string): Promise<ChangeRow | null> {
  const [row] = await db.select().from(operatorChanges).where(and(eq(operatorChanges.kind, kind), eq(operatorChanges.target, target))).orderBy(desc(operatorChanges.createdAt)).limit(1);
  return row ?? null;
}

/** The latest change of `kind` on `target` that was approved (applied, or failed after its approval). */
export async function latestApprovedChangeOn(db: DbOrTx, kind: ChangeRow['kind'], target: string): Promise<ChangeRow | null> {
  const [row] = await db
    .select()
    .from(operatorChanges)
    .where(and(eq(operatorChanges.kind, kind), eq(operatorChanges.target, target), inArray(operatorChanges.status, ['aprobado', 'fallido'])))
    .orderBy(desc(operatorChanges.decidedAt))
    .limit(1);
  return row ?? null;
}
