import { and, asc, desc, eq, gte, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { operatorChanges, transactions, webpayAttempts, type WebpayStore } from '../db/schema';
import { assertMove, WEBPAY_ATTEMPT_MOVES, type WebpayAttemptStatus } from '@pago/domain/payment-states';
import { WEBPAY_ATTEMPT_WORDS } from '@pago/domain/state-words';
import { reopenDaysOf } from './day-close-repository';

export type WebpayAttemptRow = typeof webpayAttempts.$inferSelect;
/** An attempt that reached Webpay: it has Webpay's token. */
export type OpenedAttemptRow = WebpayAttemptRow & { token: string };

/** An attempt is named by Webpay's token, or by our buy order (the only name an intent has). */
export type AttemptKey = { token: string } | { buyOrder: string };
const keyOf = (by: AttemptKey) => ('token' in by ? eq(webpayAttempts.token, by.token) : eq(webpayAttempts.buyOrder, by.buyOrder));

/** The states WEBPAY_ATTEMPT_MOVES lets an attempt move to `To` from. */
export type AttemptFrom<To extends WebpayAttemptStatus> = {
  [F in WebpayAttemptStatus]: To extends (typeof WEBPAY_ATTEMPT_MOVES)[F][number] ? F : never;
}[WebpayAttemptStatus];

/**
 * The one way an attempt's status changes: from the state(s) the caller expects, by a move WEBPAY_ATTEMPT_MOVES
 * allows (checked by the compiler and again here), named in the WHERE so a move that lost a race changes nothing.
 * Answers whether it moved: every caller decides on that answer.
 */
export async function moveAttempt<To extends WebpayAttemptStatus>(
  tx: DbOrTx,
  by: AttemptKey,
  from: AttemptFrom<To> | readonly AttemptFrom<To>[],
  to: To,
  also: { token?: string; settledAt?: SQL | null; checkedAt?: SQL | null; nextCheckAt?: SQL | null } = {},
): Promise<boolean> {
  const froms: WebpayAttemptStatus[] = typeof from === 'string' ? [from] : [...(from as readonly WebpayAttemptStatus[])];
  for (const f of froms) assertMove(WEBPAY_ATTEMPT_MOVES, f, to);
  const moved = await tx
    .update(webpayAttempts)
    .set({ settledAt: sql`now()`, checkedAt: sql`now()`, nextCheckAt: null, ...also, status: to })
    .where(and(keyOf(by), inArray(webpayAttempts.status, froms)))
    .returning({ buyOrder: webpayAttempts.buyOrder, idTransaccion: webpayAttempts.idTransaccion });
  // A closed day whose payment's charge changed is reopened, saying what changed (decision 049).
  if (moved.length > 0) await reopenDaysOf(tx, moved.map((m) => m.idTransaccion), `El cobro con tarjeta ${moved[0]!.buyOrder} pasó a «${WEBPAY_ATTEMPT_WORDS[to]}»`);
  return moved.length === 1;
}

/** A move's extra fields that have the reconciliation ask Webpay about the attempt at its next run. */
export const RECHECK_NOW = { checkedAt: null, nextCheckAt: sql`now()` };

/** Call 10's intent, before Webpay is asked (decision 044): the buy order and stores, with no token yet. */
export async function insertIntent(tx: Tx, values: { idTransaccion: string; buyOrder: string; stores: WebpayStore[] }): Promise<void> {
  // The column's default: an attempt starts as an intent.
  await tx.insert(webpayAttempts).values(values);
}

/** The states in which a form is, or may yet be, open: what a savings ceiling and an expiry must count. */
export const OPEN_ATTEMPT_STATES = ['creating', 'pending'] as const satisfies readonly WebpayAttemptStatus[];

/** Pesos sent by card to a product in the last 24 hours, by where they stand. */
export interface CardDepositsLastDay {
  /** What Webpay took: committed, or set aside. */
  taken: number;
  /** What forms still open may take: opened in the session asking, and in any other session. */
  openHere: number;
  openElsewhere: number;
}

/**
 * Card deposits into a product in the last 24 hours. Refunded, rejected, cancelled, expired and never opened attempts
 * took nothing; an intent still waiting for Webpay's create counts as an open form.
 * `sessionId`: the session asking, whose own open forms are told apart from everyone else's.
 */
export async function cardDepositsLastDay(tx: Tx, productId: string, sessionId: string): Promise<CardDepositsLastDay> {
  const amount = sql`(store ->> 'amount')::bigint`;
  const here = sql`exists (select 1 from transactions t where t.id_transaccion = ${webpayAttempts.idTransaccion} and t.session_id = ${sessionId})`;
  const [row] = await tx
    .select({
      taken: sql<string>`coalesce(sum(${amount}) filter (where ${webpayAttempts.status} in ('committed', 'set_aside')), 0)`,
      openHere: sql<string>`coalesce(sum(${amount}) filter (where ${inArray(webpayAttempts.status, OPEN_ATTEMPT_STATES)} and ${here}), 0)`,
      openElsewhere: sql<string>`coalesce(sum(${amount}) filter (where ${inArray(webpayAttempts.status, OPEN_ATTEMPT_STATES)} and not ${here}), 0)`,
    })
    .from(webpayAttempts)
    .innerJoin(sql`jsonb_array_elements(${webpayAttempts.stores}) as store`, sql`true`)
    .where(
      and(
        sql`store ->> 'productId' = ${productId}`,
        inArray(webpayAttempts.status, [...OPEN_ATTEMPT_STATES, 'committed', 'set_aside']),
        sql`${webpayAttempts.createdAt} > now() - interval '24 hours'`,
      ),
    );
  return { taken: Number(row?.taken ?? 0), openHere: Number(row?.openHere ?? 0), openElsewhere: Number(row?.openElsewhere ?? 0) };
}

/** The attempt Webpay's token or buy order names, locked (it is locked before its transaction, on every path). */
export async function lockAttempt(tx: Tx, by: { token: string }): Promise<OpenedAttemptRow | null>;
export async function lockAttempt(tx: Tx, by: AttemptKey): Promise<WebpayAttemptRow | null>;
export async function lockAttempt(tx: Tx, by: AttemptKey): Promise<WebpayAttemptRow | null> {
  const [row] = await tx.select().from(webpayAttempts).where(keyOf(by)).for('update');
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
          // An intent whose outcome was never recorded (a crash while Webpay was asked): closed by the reconciliation.
          and(eq(webpayAttempts.status, 'creating'), sql`${webpayAttempts.createdAt} < now() - make_interval(secs => ${settleAfterSeconds})`),
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
  await markChecked(tx, { buyOrder: row.buyOrder });
  return row;
}

/** The attempt Webpay's token or buy order names, read without a lock (before Webpay is asked). */
export async function findAttempt(db: DbOrTx, by: { token: string }): Promise<OpenedAttemptRow | null>;
export async function findAttempt(db: DbOrTx, by: AttemptKey): Promise<WebpayAttemptRow | null>;
export async function findAttempt(db: DbOrTx, by: AttemptKey): Promise<WebpayAttemptRow | null> {
  const [row] = await db.select().from(webpayAttempts).where(keyOf(by));
  return row ?? null;
}

/** The second look at a cancelled attempt found nothing taken: it is not looked at again. */
export async function recheckDone(tx: Tx, token: string): Promise<void> {
  await tx.update(webpayAttempts).set({ checkedAt: sql`now()`, nextCheckAt: null }).where(eq(webpayAttempts.token, token));
}

/** Webpay gave no answer about it: left pending, asked again later. */
export async function markChecked(tx: DbOrTx, by: AttemptKey): Promise<void> {
  await tx.update(webpayAttempts).set({ checkedAt: sql`now()` }).where(keyOf(by));
}

/**
 * A reconciliation of this attempt failed: it is tried again after a back-off that doubles each time (30 s to an hour),
 * and after `maxFailures` it is set aside for the operator. Answers the attempt's state after this failure.
 */
export async function recordReconciliationFailure(db: DbOrTx, buyOrder: string, maxFailures: number): Promise<{ failures: number; setAside: boolean; idTransaccion: string } | null> {
  const [row] = await db
    .update(webpayAttempts)
    .set({
      failures: sql`${webpayAttempts.failures} + 1`,
      checkedAt: sql`now()`,
      nextCheckAt: sql`now() + make_interval(secs => least(3600, 30 * power(2, ${webpayAttempts.failures})))`,
    })
    .where(and(eq(webpayAttempts.buyOrder, buyOrder), inArray(webpayAttempts.status, ['creating', 'pending', 'cancelled', 'refund_due'])))
    .returning({ failures: webpayAttempts.failures, status: webpayAttempts.status, idTransaccion: webpayAttempts.idTransaccion });
  if (!row) return null;
  // Past the bound, the operator settles it: a move through the table, from the state it was found in.
  const setAside = row.failures >= maxFailures && row.status !== 'creating' && (await moveAttempt(db, { buyOrder }, row.status as AttemptFrom<'set_aside'>, 'set_aside'));
  return { failures: row.failures, setAside, idTransaccion: row.idTransaccion };
}

export function countSetAside(db: DbOrTx): Promise<number> {
  return db.$count(webpayAttempts, eq(webpayAttempts.status, 'set_aside'));
}

/** The transaction's forms that are, or may yet be, open. */
export async function countPendingOf(tx: Tx, idTransaccion: string): Promise<number> {
  return tx.$count(webpayAttempts, and(eq(webpayAttempts.idTransaccion, idTransaccion), inArray(webpayAttempts.status, OPEN_ATTEMPT_STATES)));
}

/** Open attempts and intents older than the form's lifetime: the reconciliation's backlog. */
export function countOverdue(db: DbOrTx, settleAfterSeconds: number): Promise<number> {
  return db.$count(webpayAttempts, and(inArray(webpayAttempts.status, OPEN_ATTEMPT_STATES), sql`${webpayAttempts.createdAt} < now() - make_interval(secs => ${settleAfterSeconds})`));
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

/** Attempts of the last 30 days with a form open or an intent waiting, and with money held (set aside or being refunded). */
export async function openAndHeldLastMonth(db: DbOrTx): Promise<{ pendientes: number; apartados: number }> {
  const [row] = await db
    .select({
      pendientes: sql<number>`count(*) filter (where ${webpayAttempts.status} in ('creating', 'pending'))`,
      apartados: sql<number>`count(*) filter (where ${webpayAttempts.status} in ('set_aside', 'refund_due'))`,
    })
    .from(webpayAttempts)
    .where(gte(webpayAttempts.createdAt, sql`now() - interval '30 days'`));
  return { pendientes: Number(row?.pendientes ?? 0), apartados: Number(row?.apartados ?? 0) };
}

/** The set-aside attempts, newest first, with their payment's state and whether a refund of each waits for approval. */
export function setAsideWithProposals(db: DbOrTx) {
  return db
    .select({ attempt: webpayAttempts, estadoPago: transactions.status, propuesta: operatorChanges.id })
    .from(webpayAttempts)
    .innerJoin(transactions, eq(transactions.idTransaccion, webpayAttempts.idTransaccion))
    .leftJoin(operatorChanges, and(eq(operatorChanges.kind, 'devolucion_webpay'), eq(operatorChanges.target, webpayAttempts.buyOrder), eq(operatorChanges.status, 'pendiente')))
    .where(eq(webpayAttempts.status, 'set_aside'))
    .orderBy(desc(webpayAttempts.settledAt))
    .limit(200);
}

/** The payment's charge Webpay took and that was applied to it; null when none was. */
export async function committedAttemptOf(db: DbOrTx, idTransaccion: string): Promise<WebpayAttemptRow | null> {
  const [row] = await db.select().from(webpayAttempts).where(and(eq(webpayAttempts.idTransaccion, idTransaccion), eq(webpayAttempts.status, 'committed')));
  return row ?? null;
}
