import { checkedFrom, DAY_CLOSE_MOVES, type CoreOperationStatus, type DayCloseStatus, type TransactionStatus, type WebpayAttemptStatus } from '@pago/domain/payment-states';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { dayCloses, type CoreLineRow, type WebpayStore } from '../db/schema';

export type DayCloseRow = typeof dayCloses.$inferSelect;

/** The business day (Santiago) a payment belongs to: the day it was opened, fixed for good. */
const dayOf = (createdAt: SQL | string) => sql`(${typeof createdAt === 'string' ? sql.raw(createdAt) : createdAt} at time zone 'America/Santiago')::date`;

/** Opened on that business day, as a range of instants (an index on the column serves it). */
const openedOn = (column: string, fecha: string) =>
  sql`${sql.raw(column)} >= (${fecha}::date::timestamp at time zone 'America/Santiago') and ${sql.raw(column)} < ((${fecha}::date + 1)::timestamp at time zone 'America/Santiago')`;

export interface DayPaymentRow {
  idTransaccion: string;
  family: string;
  medioPago: string | null;
  status: TransactionStatus;
  /** The lines paid here (0 until the payment is paid). */
  paid: number;
  /** The products whose lines were paid: the stores Webpay approved of a card payment. */
  paidProducts: string[];
  attempts: { buyOrder: string; status: WebpayAttemptStatus; stores: WebpayStore[] }[];
  ops: { key: string; kind: 'cuenta_vista' | 'abono_webpay'; status: CoreOperationStatus; amount: number; lines: CoreLineRow[]; sourceAccount: string | null }[];
}

/**
 * The payments of a business day (yyyy-mm-dd): those opened that day that moved or may have moved money — paid or
 * waiting for the core, with an operation asked of the core, or with a card attempt that is or was able to charge —
 * each with its paid lines, its attempts and its operations, whatever their day.
 */
export async function paymentsOfDay(db: DbOrTx, fecha: string): Promise<DayPaymentRow[]> {
  const { rows } = (await db.execute(sql`
    select t.id_transaccion as "idTransaccion", t.family, t.medio_pago as "medioPago", t.status,
           coalesce((select sum(i.monto) from transaction_items i where i.id_transaccion = t.id_transaccion and i.status = 'paid'), 0) as paid,
           coalesce((select jsonb_agg(distinct i.product_id) from transaction_items i where i.id_transaccion = t.id_transaccion and i.status = 'paid'), '[]') as "paidProducts",
           coalesce((select jsonb_agg(jsonb_build_object('buyOrder', a.buy_order, 'status', a.status, 'stores', a.stores) order by a.created_at)
                       from webpay_attempts a where a.id_transaccion = t.id_transaccion and a.status not in ('rejected', 'expired', 'not_opened')), '[]') as attempts,
           coalesce((select jsonb_agg(jsonb_build_object('key', o.key, 'kind', o.kind, 'status', o.status, 'amount', o.amount, 'lines', o.lines, 'sourceAccount', o.source_account) order by o.created_at)
                       from core_operations o where o.id_transaccion = t.id_transaccion), '[]') as ops
      from transactions t
     where ${openedOn('t.created_at', fecha)}
       and (t.status in ('paid', 'posting')
            or exists (select 1 from core_operations o where o.id_transaccion = t.id_transaccion)
            or exists (select 1 from webpay_attempts a where a.id_transaccion = t.id_transaccion and a.status not in ('rejected', 'expired', 'not_opened')))
     order by t.created_at, t.id_transaccion`)) as unknown as { rows: (Omit<DayPaymentRow, 'paid'> & { paid: string | number })[] };
  return rows.map((row) => ({ ...row, paid: Number(row.paid), ops: row.ops.map((op) => ({ ...op, amount: Number(op.amount) })) }));
}

/** Which of these keys name an operation here (on any day). */
export async function knownKeys(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = (await db.execute(sql`select key from core_operations where key in ${keys}`)) as unknown as { rows: { key: string }[] };
  return new Set(rows.map((r) => r.key));
}

export async function closeOf(db: DbOrTx, fecha: string): Promise<DayCloseRow | null> {
  const [row] = await db.select().from(dayCloses).where(eq(dayCloses.fecha, fecha));
  return row ?? null;
}

/**
 * The one way a day's close changes state (DAY_CLOSE_MOVES): closed for the first time (`from` null: no row yet),
 * reopened, or closed again; only from `from`, only where `which` matches (a day, or a condition). Answers the rows moved.
 */
export async function moveDayClose(
  db: DbOrTx,
  which: string | SQL,
  from: DayCloseStatus | null,
  to: DayCloseStatus,
  also: { proposedBy?: string; closedBy?: string; changeId?: string; totals?: Record<string, unknown>; reopenReason?: string } = {},
): Promise<DayCloseRow[]> {
  if (from === null) {
    if (to !== 'cerrado' || typeof which !== 'string' || !also.proposedBy || !also.closedBy || !also.changeId || !also.totals) throw new Error('a day is first closed with who signed it and what');
    // The column's default: a day's first row is its close.
    return db.insert(dayCloses).values({ fecha: which, proposedBy: also.proposedBy, closedBy: also.closedBy, changeId: also.changeId, totals: also.totals }).onConflictDoNothing().returning();
  }
  const states = checkedFrom(DAY_CLOSE_MOVES, from, to);
  const fields =
    to === 'cerrado'
      ? { proposedBy: also.proposedBy, closedBy: also.closedBy, changeId: also.changeId, totals: also.totals, closedAt: sql`now()`, reopenedAt: null, reopenReason: null }
      : { reopenedAt: sql`now()`, reopenReason: also.reopenReason ?? null };
  return db
    .update(dayCloses)
    .set({ ...fields, status: to })
    .where(and(typeof which === 'string' ? eq(dayCloses.fecha, which) : which, inArray(dayCloses.status, states)))
    .returning();
}

/**
 * Reopens the closed days of these payments, saying why: called by every transition function of a payment's
 * machines (transaction, card attempt, core operation), so whatever changes a closed day's payment shows on its close.
 * Only the first change after a close is its reason; nothing is written while no day of theirs is closed.
 */
export async function reopenDaysOf(db: DbOrTx, idTransacciones: string[], reason: string): Promise<void> {
  if (idTransacciones.length === 0) return;
  const days = sql`${dayCloses.fecha} in (select ${dayOf('created_at')} from transactions where id_transaccion in ${idTransacciones})`;
  await moveDayClose(db, days, 'cerrado', 'reabierto', { reopenReason: reason.slice(0, 300) });
}

/**
 * The oldest business day before `today` with a paid payment and no close in force, within the last 90 days;
 * null when every such day is closed.
 */
export async function oldestOpenDay(db: DbOrTx, today: string): Promise<string | null> {
  const { rows } = (await db.execute(sql`
    select min(d)::text as day from (
      select distinct ${dayOf('created_at')} as d from transactions
       where status = 'paid' and created_at > now() - interval '90 days') days
     where d < ${today}::date
       and not exists (select 1 from day_closes c where c.fecha = days.d and c.status = 'cerrado')`)) as unknown as { rows: { day: string | null }[] };
  return rows[0]?.day ?? null;
}

/** Locks the day's payments against moves until the close commits: a move waits, then reopens the day it closed. */
export async function holdDayPayments(tx: Tx, fecha: string): Promise<void> {
  await tx.execute(sql`select id_transaccion from transactions where ${openedOn('created_at', fecha)} for share`);
}
