import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { webpayAttempts, type WebpayStore } from '../db/schema';
import { movesInto, WEBPAY_ATTEMPT_MOVES, type WebpayAttemptStatus } from '@pago/domain/payment-states';

export type WebpayAttemptRow = typeof webpayAttempts.$inferSelect;

export async function insertAttempt(tx: Tx, values: { token: string; idTransaccion: string; buyOrder: string; stores: WebpayStore[] }): Promise<void> {
  await tx.insert(webpayAttempts).values(values);
}

/** Pesos sent by card to a product in the last 24 hours, by where they stand. */
export interface CardDepositsLastDay {
  /** What Webpay took: committed, or set aside. */
  taken: number;
  /** What forms still open may take: opened in the session asking, and in any other session. */
  openHere: number;
  openElsewhere: number;
}

/**
 * Card deposits into a product in the last 24 hours. Refunded, rejected, cancelled and expired attempts took nothing.
 * `sessionId`: the session asking, whose own open forms are told apart from everyone else's.
 */
export async function cardDepositsLastDay(tx: Tx, productId: string, sessionId: string): Promise<CardDepositsLastDay> {
  const amount = sql`(store ->> 'amount')::bigint`;
  const here = sql`exists (select 1 from transactions t where t.id_transaccion = ${webpayAttempts.idTransaccion} and t.session_id = ${sessionId})`;
  const [row] = await tx
    .select({
      taken: sql<string>`coalesce(sum(${amount}) filter (where ${webpayAttempts.status} in ('committed', 'set_aside')), 0)`,
      openHere: sql<string>`coalesce(sum(${amount}) filter (where ${webpayAttempts.status} = 'pending' and ${here}), 0)`,
      openElsewhere: sql<string>`coalesce(sum(${amount}) filter (where ${webpayAttempts.status} = 'pending' and not ${here}), 0)`,
    })
    .from(webpayAttempts)
    .innerJoin(sql`jsonb_array_elements(${webpayAttempts.stores}) as store`, sql`true`)
    .where(
      and(
        sql`store ->> 'productId' = ${productId}`,
        inArray(webpayAttempts.status, ['pending', 'committed', 'set_aside']),
        sql`${webpayAttempts.createdAt} > now() - interval '24 hours'`,
      ),
    );
  return { taken: Number(row?.taken ?? 0), openHere: Number(row?.openHere ?? 0), openElsewhere: Number(row?.openElsewhere ?? 0) };
}

/** The attempt Webpay's token or buy order names, locked (it is locked before its transaction, on every path). */
export async function lockAttempt(tx: Tx, by: { token: string } | { buyOrder: string }): Promise<WebpayAttemptRow | null> {
  const where = 'token' in by ? eq(webpayAttempts.token, by.token) : eq(webpayAttempts.buyOrder, by.buyOrder);
  const [row] = await tx.select().from(webpayAttempts).where(where).for('update');
  return row ?? null;
}

/**
 * Claims the oldest attempt to reconcile (pending past the form's lifetime, cancelled and due a second look, or with
 * money to give back), not asked about in the last 30 s and past its back-off. SKIP LOCKED gives each to one replica,
 * and marking it asked now keeps the others off it for 30 s while Webpay is asked with no lock held.
 */
export async function claimNextToReconcile(tx: Tx, settleAfterSeconds: number): Promise<WebpayAttemptRow | null> {
  const [row] = await tx
    .select()
    .from(webpayAttempts)
    .where(
      and(
        or(
          and(eq(webpayAttempts.status, 'pending'), sql`${webpayAttempts.createdAt} < now() - make_interval(secs => ${settleAfterSeconds})`),
          // Cancelled by a browser's return: looked at once more (recheckCancelled), after the form's lifetime.
          and(eq(webpayAttempts.status, 'cancelled'), isNotNull(webpayAttempts.nextCheckAt), sql`${webpayAttempts.createdAt} < now() - make_interval(secs => ${settleAfterSeconds})`),
          // Money to give back that Webpay has not yet given back.
          eq(webpayAttempts.status, 'refund_due'),
        ),
        sql`(${webpayAttempts.checkedAt} is null or ${webpayAttempts.checkedAt} < now() - make_interval(secs => 30))`,
        sql`(${webpayAttempts.nextCheckAt} is null or ${webpayAttempts.nextCheckAt} <= now())`,
      ),
    )
    .orderBy(asc(webpayAttempts.createdAt))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!row) return null;
  await markChecked(tx, row.token);
  return row;
}

/** The attempt Webpay's token or buy order names, read without a lock (before Webpay is asked). */
export async function findAttempt(db: DbOrTx, by: { token: string } | { buyOrder: string }): Promise<WebpayAttemptRow | null> {
  const where = 'token' in by ? eq(webpayAttempts.token, by.token) : eq(webpayAttempts.buyOrder, by.buyOrder);
  const [row] = await db.select().from(webpayAttempts).where(where);
  return row ?? null;
}

/** Moves the attempt to `status`, only from a state WEBPAY_ATTEMPT_MOVES allows that move from. */
export async function moveAttempt(tx: Tx, token: string, status: Exclude<WebpayAttemptStatus, 'pending'>): Promise<void> {
  await tx
    .update(webpayAttempts)
    .set({ status, settledAt: sql`now()`, checkedAt: sql`now()`, nextCheckAt: null })
    .where(and(eq(webpayAttempts.token, token), inArray(webpayAttempts.status, movesInto(WEBPAY_ATTEMPT_MOVES, status))));
}

/**
 * Cancelled on a browser's word (after Webpay said the form ended): the reconciliation asks Webpay once more after the
 * form's lifetime, in case it took the money after all.
 */
export async function cancelAndRecheck(tx: Tx, token: string): Promise<void> {
  await tx.update(webpayAttempts).set({ status: 'cancelled', settledAt: sql`now()`, checkedAt: null, nextCheckAt: sql`now()` }).where(eq(webpayAttempts.token, token));
}

/** The second look at a cancelled attempt found nothing taken: it is not looked at again. */
export async function recheckDone(tx: Tx, token: string): Promise<void> {
  await tx.update(webpayAttempts).set({ checkedAt: sql`now()`, nextCheckAt: null }).where(eq(webpayAttempts.token, token));
}

/** Webpay gave no answer about it: left pending, asked again later. */
export async function markChecked(tx: DbOrTx, token: string): Promise<void> {
  await tx.update(webpayAttempts).set({ checkedAt: sql`now()` }).where(eq(webpayAttempts.token, token));
}

/**
 * A reconciliation of this attempt failed: it is tried again after a back-off that doubles each time (30 s to an hour),
 * and after `maxFailures` it is set aside for the operator. Answers the attempt's state after this failure.
 */
export async function recordReconciliationFailure(db: DbOrTx, token: string, maxFailures: number): Promise<{ failures: number; setAside: boolean; idTransaccion: string } | null> {
  const [row] = await db
    .update(webpayAttempts)
    .set({
      failures: sql`${webpayAttempts.failures} + 1`,
      checkedAt: sql`now()`,
      nextCheckAt: sql`now() + make_interval(secs => least(3600, 30 * power(2, ${webpayAttempts.failures})))`,
      status: sql`case when ${webpayAttempts.failures} + 1 >= ${maxFailures} then 'set_aside' else ${webpayAttempts.status} end`,
    })
    .where(and(eq(webpayAttempts.token, token), inArray(webpayAttempts.status, ['pending', 'cancelled', 'refund_due'])))
    .returning({ failures: webpayAttempts.failures, status: webpayAttempts.status, idTransaccion: webpayAttempts.idTransaccion });
  return row ? { failures: row.failures, setAside: row.status === 'set_aside', idTransaccion: row.idTransaccion } : null;
}

export function countSetAside(db: DbOrTx): Promise<number> {
  return db.$count(webpayAttempts, eq(webpayAttempts.status, 'set_aside'));
}

export async function countPendingOf(tx: Tx, idTransaccion: string): Promise<number> {
  return tx.$count(webpayAttempts, and(eq(webpayAttempts.idTransaccion, idTransaccion), eq(webpayAttempts.status, 'pending')));
}

/** Pending attempts older than the form's lifetime: the reconciliation's backlog. */
export function countOverdue(db: DbOrTx, settleAfterSeconds: number): Promise<number> {
  return db.$count(webpayAttempts, and(eq(webpayAttempts.status, 'pending'), sql`${webpayAttempts.createdAt} < now() - make_interval(secs => ${settleAfterSeconds})`));
}

export function attemptsOf(db: DbOrTx, idTransaccion: string) {
  return db
    .select({ buyOrder: webpayAttempts.buyOrder, status: webpayAttempts.status, stores: webpayAttempts.stores, createdAt: webpayAttempts.createdAt, settledAt: webpayAttempts.settledAt })
    .from(webpayAttempts)
    .where(eq(webpayAttempts.idTransaccion, idTransaccion))
    .orderBy(asc(webpayAttempts.createdAt));
}

/** A return refused while the form is open: counted; answers whether it is the attempt's first (the one audited). */
export async function countRefusedReturn(db: DbOrTx, token: string): Promise<boolean> {
  const [row] = await db
    .update(webpayAttempts)
    .set({ refusedReturns: sql`${webpayAttempts.refusedReturns} + 1`, checkedAt: sql`now()` })
    .where(eq(webpayAttempts.token, token))
    .returning({ refusedReturns: webpayAttempts.refusedReturns });
  return row?.refusedReturns === 1;
}

/**
 * The business day's card payments (Santiago's day when Webpay's answer was recorded, or the form opened when there is
 * none yet): each Webpay attempt with its payment's state, and card payments with no committed attempt.
 */
export async function cardPaymentsOfDay(db: DbOrTx, fecha: string) {
  const { rows } = (await db.execute(sql`
      select a.buy_order, t.id_transaccion, a.status as attempt, t.status as payment,
             coalesce((select sum((s->>'amount')::bigint) from jsonb_array_elements(a.stores) s), t.total) as amount
        from webpay_attempts a join transactions t on t.id_transaccion = a.id_transaccion
       where (coalesce(a.settled_at, a.created_at) at time zone 'America/Santiago')::date = ${fecha}::date
      union all
      select null, t.id_transaccion, null, t.status, t.total
        from transactions t
       where t.medio_pago = 'WEBPAY' and t.status = 'paid'
         and (t.settled_at at time zone 'America/Santiago')::date = ${fecha}::date
         and not exists (select 1 from webpay_attempts a where a.id_transaccion = t.id_transaccion and a.status = 'committed')
       order by 1 nulls last`)) as unknown as { rows: { buy_order: string | null; id_transaccion: string; attempt: string | null; payment: string; amount: string | number }[] };
  return rows;
}
