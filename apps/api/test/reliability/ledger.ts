import type { SimStore } from '@pago/webpay-sim/store';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../src/db/client';
import type { CoreBooks } from '../support/test-app';

// The money invariant, read from the database (and from the provider's books for card payments). Every payment is
// one database transaction, so at any instant, whatever crashed or raced:
//   account balance + what paid own-account transactions debited from it   = its balance before
//   instalment pending amount + what paid transactions paid on it           = its pending amount before (≥ 0)
//   savings balance − what paid transactions deposited into it              = its balance before
//   what Webpay charged and kept for a transaction                          = what that transaction applied
// and a transaction is pending or final, with exactly one voucher when paid and none otherwise.

const num = (v: unknown) => Number(typeof v === 'bigint' ? v.toString() : (v ?? 0));

async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface LedgerSnapshot {
  accounts: Map<string, number>;
  instalments: Map<string, number>;
  savings: Map<string, number>;
  totals: LedgerTotals;
}

export interface LedgerTotals {
  /** Σ own-account balances. */
  balances: number;
  /** Σ pending instalment amounts (credits, shares, card statements). */
  pending: number;
  /** Σ savings balances. */
  savings: number;
  /** Σ amounts applied by paid transactions (own account and card). */
  paid: number;
  /** Σ applied by card payments (money that came from outside). */
  paidByCard: number;
}

/** Reads every account, instalment and savings balance with what paid transactions moved on it, in one snapshot. */
async function read(db: DbOrTx): Promise<LedgerSnapshot> {
  const accounts = await rows<{ id: string; saldo: unknown; debited: unknown }>(
    db,
    sql`select a.id, a.saldo,
          coalesce((select sum(ti.monto) from transaction_items ti join transactions t on t.id_transaccion = ti.id_transaccion
                    where t.status in ('paid', 'reversing') and t.medio_pago = 'CUENTA VISTA' and t.account_id = a.id and ti.status = 'paid'), 0)::int8 as debited
        from accounts a`,
  );
  const instalments = await rows<{ id: string; pendiente: unknown; paid: unknown }>(
    db,
    sql`select i.id, i.monto_pendiente as pendiente,
          coalesce((select sum(ti.monto) from transaction_items ti join transactions t on t.id_transaccion = ti.id_transaccion
                    where t.status in ('paid', 'reversing') and ti.status = 'paid' and ti.instalment_id = i.id), 0)::int8 as paid
        from instalments i`,
  );
  const savings = await rows<{ id: string; saldo: unknown; deposited: unknown }>(
    db,
    sql`select p.id, p.saldo,
          coalesce((select sum(ti.monto) from transaction_items ti join transactions t on t.id_transaccion = ti.id_transaccion
                    where t.status in ('paid', 'reversing') and ti.status = 'paid' and ti.instalment_id is null and ti.product_id = p.id), 0)::int8 as deposited
        from products p where p.family = 'AH'`,
  );
  const [paid] = await rows<{ total: unknown; card: unknown }>(
    db,
    sql`select coalesce(sum(ti.monto), 0)::int8 as total,
               coalesce(sum(ti.monto) filter (where t.medio_pago = 'WEBPAY'), 0)::int8 as card
        from transaction_items ti join transactions t on t.id_transaccion = ti.id_transaccion
        where t.status = 'paid' and ti.status = 'paid'`,
  );
  const snapshot: LedgerSnapshot = {
    // Invariant forms: balance + debited, pending + paid, savings − deposited.
    accounts: new Map(accounts.map((a) => [a.id, num(a.saldo) + num(a.debited)])),
    instalments: new Map(instalments.map((i) => [i.id, num(i.pendiente) + num(i.paid)])),
    savings: new Map(savings.map((s) => [s.id, num(s.saldo) - num(s.deposited)])),
    totals: {
      balances: accounts.reduce((s, a) => s + num(a.saldo), 0),
      pending: instalments.reduce((s, i) => s + num(i.pendiente), 0),
      savings: savings.reduce((s, p) => s + num(p.saldo), 0),
      paid: num(paid?.total),
      paidByCard: num(paid?.card),
    },
  };
  const negative = [
    ...accounts.filter((a) => num(a.saldo) < 0).map((a) => `account ${a.id} is negative (${num(a.saldo)})`),
    ...instalments.filter((i) => num(i.pendiente) < 0).map((i) => `instalment ${i.id} is below zero (${num(i.pendiente)})`),
  ];
  if (negative.length) (snapshot as LedgerSnapshot & { negative?: string[] }).negative = negative;
  return snapshot;
}

/** All reads of a check see one instant, even while other processes keep paying. */
function inSnapshot<T>(db: Db, run: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(run, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

export function captureLedger(db: Db): Promise<LedgerSnapshot> {
  return inSnapshot(db, read);
}

export interface InvariantOptions {
  /** The provider's books: what Webpay charged (committed and still authorised) must equal what was applied. */
  provider?: SimStore;
  /** No card payment may be left pending (after the reconciliation has had its chance). */
  noPendingCard?: boolean;
  /** The core's books (the core simulator's /__sim/books): what it booked under our keys must be what we booked. */
  core?: CoreBooks;
  /** No posting to the core may be left unacknowledged (after the postings have drained). */
  noPendingPostings?: boolean;
}

const CHANNEL_KEY = /^Pago Online (\S+)$/;

/**
 * Money the core moved under our keys, read from its books: debits of a cuenta vista and credits of a product, per
 * key. A transfer's key is in its description; a batch's withdrawal and credits carry it as receipt numbers.
 */
function coreMoneyByKey(core: CoreBooks): { debits: Map<string, number[]>; credits: Map<string, number[]> } {
  const debits = new Map<string, number[]>();
  const credits = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, amount: number) => map.set(key, [...(map.get(key) ?? []), amount]);
  const transferKey = new Map(core.transfers.filter((t) => !t.reversed).map((t) => [t.id, CHANNEL_KEY.exec(t.description)?.[1]]));
  for (const account of core.savings) {
    for (const t of account.transactions) {
      if (t.reversed) continue;
      const key = t.transfer ? transferKey.get(t.transfer.transferId) : t.receiptNumber;
      if (!key) continue;
      if (t.type === 'withdrawal') add(debits, key, t.amount);
      // A batch's credits are keyed `key.n`; a transfer's credit carries the transfer's key.
      else add(credits, key.replace(/\.\d+$/, ''), t.amount);
    }
  }
  for (const loan of core.loans) {
    for (const t of loan.transactions) {
      if (t.reversed) continue;
      const key = t.transfer ? transferKey.get(t.transfer.transferId) : (t.externalId ?? t.receiptNumber);
      if (key) add(credits, key.replace(/\.\d+$/, ''), t.amount);
    }
  }
  return { debits, credits };
}

/** The core's books against ours: every debit and credit booked once under its key, for what we booked, and no other. */
async function coreViolations(tx: Db, core: CoreBooks, noPendingPostings: boolean): Promise<string[]> {
  const violations: string[] = [];
  const ops = await rows<{ key: string; kind: string; status: string; amount: unknown; id: string; trx_status: string }>(
    tx,
    sql`select o.key, o.kind, o.status, o.amount, o.id_transaccion as id, t.status as trx_status from core_operations o join transactions t on t.id_transaccion = o.id_transaccion`,
  );
  const { debits, credits } = coreMoneyByKey(core);
  const known = new Set(ops.map((o) => o.key));
  const sumOf = (list: number[]) => list.reduce((a, b) => a + b, 0);
  // A reversal (decision 050) gives an operation's money back once: undone in the core (the key moves nothing any
  // more), or by a transfer back under its own key; never both, never twice.
  const reversedKeys = new Set<string>();
  for (const op of ops.filter((o) => o.kind === 'anulacion')) {
    const original = op.key.replace(/(\.r\d+)+$/, '').replace(/\.x$/, '');
    const back = [...debits.keys()].filter((k) => k === `${original}.x` || k.startsWith(`${original}.x.`));
    const movedBack = back.reduce((s, k) => s + sumOf(debits.get(k) ?? []), 0);
    const undone = !debits.has(original) && !credits.has(original);
    if (op.status === 'booked') {
      reversedKeys.add(original);
      if (undone === movedBack > 0) violations.push(`reversal ${op.key}: the core ${undone ? 'undid it and moved it back' : 'still holds it'} (moved back ${movedBack})`);
      if (movedBack > 0 && movedBack !== num(op.amount)) violations.push(`reversal ${op.key}: booked here for ${num(op.amount)}, the core moved back ${movedBack}`);
      if (!['reversing', 'reversed'].includes(op.trx_status)) violations.push(`reversal ${op.key}: booked, but its transaction is ${op.trx_status}`);
    } else if (op.status !== 'pending' && (movedBack > 0 || undone)) violations.push(`reversal ${op.key}: ${op.status} here, but the core gave the money back`);
    if (noPendingPostings && op.status === 'pending') violations.push(`reversal ${op.key} still unacknowledged by the core`);
  }
  for (const op of ops) {
    if (op.kind === 'anulacion' || reversedKeys.has(op.key)) continue;
    const amount = num(op.amount);
    const debited = debits.get(op.key) ?? [];
    const credited = credits.get(op.key) ?? [];
    const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
    if (op.kind === 'cuenta_vista') {
      if (op.status === 'booked' && (debited.length !== 1 || debited[0] !== amount)) violations.push(`own-account debit ${op.key}: booked here for ${amount}, the core debited [${debited.join(', ')}]`);
      if (op.status === 'booked' && sum(credited) !== amount) violations.push(`own-account debit ${op.key}: booked here for ${amount}, the core credited ${sum(credited)}`);
      if ((op.status === 'refused' || op.status === 'failed') && debited.length > 0) violations.push(`own-account debit ${op.key}: ${op.status} here, but the core debited [${debited.join(', ')}]`);
      if (op.status === 'booked' && !['paid', 'reversing', 'reversed'].includes(op.trx_status)) violations.push(`own-account debit ${op.key}: booked by the core, but its transaction is ${op.trx_status}`);
    } else {
      if (op.status === 'booked' && (credited.length !== 1 || credited[0] !== amount)) violations.push(`card credit ${op.key}: booked here for ${amount}, the core credited [${credited.join(', ')}]`);
      if (op.status !== 'booked' && credited.length > 0 && op.status !== 'pending') violations.push(`card credit ${op.key}: ${op.status} here, but the core credited [${credited.join(', ')}]`);
      if (op.status === 'pending' && credited.length > 1) violations.push(`card credit ${op.key}: the core credited it ${credited.length} times`);
    }
    if (noPendingPostings && op.status === 'pending') violations.push(`${op.kind} ${op.key} still unacknowledged by the core`);
  }
  for (const key of new Set([...debits.keys(), ...credits.keys()])) {
    if (!known.has(key)) violations.push(`the core moved money under ${key}, which nothing here knows`);
  }
  const paidOwn = await rows<{ id: string; booked: unknown }>(
    tx,
    sql`select t.id_transaccion as id, (select count(*) from core_operations o where o.id_transaccion = t.id_transaccion and o.kind = 'cuenta_vista' and o.status = 'booked')::int8 as booked
        from transactions t where t.status = 'paid' and t.medio_pago = 'CUENTA VISTA'`,
  );
  for (const t of paidOwn) if (num(t.booked) !== 1) violations.push(`own-account transaction ${t.id} paid here with ${num(t.booked)} debits booked by the core`);
  return violations;
}

export interface InvariantReport {
  violations: string[];
  totals: LedgerTotals;
  transactions: Record<string, number>;
  /** Σ charged by the provider and kept (committed, not refunded). */
  charged: number;
}

/** Checks the money invariant against a snapshot taken before; answers every violation found (none is good). */
export async function checkInvariants(db: Db, before: LedgerSnapshot, options: InvariantOptions = {}): Promise<InvariantReport> {
  return inSnapshot(db, async (tx) => {
    const now = await read(tx);
    const violations: string[] = [...((now as LedgerSnapshot & { negative?: string[] }).negative ?? [])];
    const compare = (what: string, a: Map<string, number>, b: Map<string, number>) => {
      for (const [id, value] of b) {
        const was = a.get(id);
        // Rows created after the snapshot start at their own first value.
        if (was !== undefined && was !== value) violations.push(`${what} ${id}: ${was} before, ${value} now`);
      }
    };
    compare('account balance + debited', before.accounts, now.accounts);
    compare('instalment pending + paid', before.instalments, now.instalments);
    compare('savings balance − deposited', before.savings, now.savings);

    const statuses = await rows<{ status: string; n: unknown }>(tx, sql`select status, count(*)::int8 as n from transactions group by status`);
    const transactions = Object.fromEntries(statuses.map((s) => [s.status, num(s.n)]));
    for (const s of Object.keys(transactions)) {
      if (!['pending', 'posting', 'paid', 'reversing', 'reversed', 'rejected', 'cancelled', 'expired'].includes(s)) violations.push(`transactions in an unknown state '${s}'`);
    }
    const broken = await rows<{ id: string; status: string; vouchers: unknown; paid_items: unknown; items: unknown; items_total: unknown; total: unknown; medio: string | null; account: string | null }>(
      tx,
      sql`select t.id_transaccion as id, t.status, t.total, t.medio_pago as medio, t.account_id as account,
            (select count(*) from vouchers v where v.id_transaccion = t.id_transaccion)::int8 as vouchers,
            (select count(*) from transaction_items ti where ti.id_transaccion = t.id_transaccion and ti.status = 'paid')::int8 as paid_items,
            (select count(*) from transaction_items ti where ti.id_transaccion = t.id_transaccion)::int8 as items,
            (select coalesce(sum(ti.monto), 0) from transaction_items ti where ti.id_transaccion = t.id_transaccion)::int8 as items_total
          from transactions t`,
    );
    for (const t of broken) {
      const vouchers = num(t.vouchers);
      const paidItems = num(t.paid_items);
      if (t.status === 'reversing' || t.status === 'reversed') {
        // A reversed payment keeps its voucher (its verification says it was reversed); its lines are owed again.
        if (vouchers !== 1) violations.push(`${t.status} transaction ${t.id} has ${vouchers} vouchers`);
        if (t.status === 'reversed' && paidItems !== 0) violations.push(`reversed transaction ${t.id} still has paid items`);
      } else if (t.status === 'paid') {
        if (vouchers !== 1) violations.push(`paid transaction ${t.id} has ${vouchers} vouchers`);
        if (paidItems === 0) violations.push(`paid transaction ${t.id} paid nothing`);
        if (t.medio === 'CUENTA VISTA' && (paidItems !== num(t.items) || !t.account)) violations.push(`own-account transaction ${t.id} is half-applied`);
      } else {
        if (vouchers !== 0) violations.push(`${t.status} transaction ${t.id} has a voucher`);
        if (paidItems !== 0) violations.push(`${t.status} transaction ${t.id} has paid items`);
      }
      if (num(t.items_total) !== num(t.total)) violations.push(`transaction ${t.id}: total ${num(t.total)} but items sum ${num(t.items_total)}`);
    }

    let charged = 0;
    if (options.provider) {
      const attempts = await rows<{ buy_order: string; id: string; status: string }>(tx, sql`select buy_order, id_transaccion as id, status from webpay_attempts`);
      const byOrder = new Map(attempts.map((a) => [a.buy_order, a]));
      const chargedPerTrx = new Map<string, number>();
      for (const trx of options.provider.all()) {
        if (trx.committedAt === null) continue;
        const kept = trx.details.reduce((s, d) => s + (d.status === 'AUTHORIZED' ? d.amount : d.status === 'NULLIFIED' ? d.balance : 0), 0);
        if (kept === 0) continue;
        charged += kept;
        const attempt = byOrder.get(trx.buyOrder);
        if (!attempt) {
          violations.push(`Webpay charged ${kept} for buy order ${trx.buyOrder}, which no transaction knows`);
          continue;
        }
        chargedPerTrx.set(attempt.id, (chargedPerTrx.get(attempt.id) ?? 0) + kept);
      }
      const applied = await rows<{ id: string; applied: unknown }>(
        tx,
        sql`select t.id_transaccion as id, coalesce(sum(ti.monto), 0)::int8 as applied
            from transactions t join transaction_items ti on ti.id_transaccion = t.id_transaccion
            where t.status in ('paid', 'reversing') and t.medio_pago = 'WEBPAY' and ti.status = 'paid' group by t.id_transaccion`,
      );
      const appliedPerTrx = new Map(applied.map((a) => [a.id, num(a.applied)]));
      // A reversal under way: the core gave the money back, Webpay refunds next (its charge refund_due or set aside).
      const refundingPerTrx = new Map(
        (await rows<{ id: string; total: unknown }>(tx, sql`select id_transaccion as id, total from transactions where status = 'reversing' and medio_pago = 'WEBPAY'`)).map((r) => [r.id, num(r.total)]),
      );
      for (const id of new Set([...chargedPerTrx.keys(), ...appliedPerTrx.keys()])) {
        const c = chargedPerTrx.get(id) ?? 0;
        const a = appliedPerTrx.get(id) ?? 0;
        if (c !== a && !(a === 0 && c === refundingPerTrx.get(id))) violations.push(`transaction ${id}: Webpay kept ${c}, the transaction applied ${a}`);
      }
      if (options.noPendingCard) {
        const pending = attempts.filter((a) => a.status === 'pending');
        if (pending.length) violations.push(`${pending.length} card payments still pending at Webpay after reconciliation`);
      }
    }
    if (options.core) violations.push(...(await coreViolations(tx as unknown as Db, options.core, options.noPendingPostings ?? false)));
    return { violations, totals: now.totals, transactions, charged };
  });
}

/** Row counts of every table (the migrations' own bookkeeping aside). */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = await rows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await rows<{ n: unknown }>(db, sql`select count(*)::int8 as n from ${sql.identifier(table_name)}`);
    counts[table_name] = num(row?.n);
  }
  return counts;
}

/** The parameters' values, to see that nothing hostile changed them. */
export async function parameterValues(db: Db): Promise<Record<string, string>> {
  const list = await rows<{ nombre: string; valor: string }>(db, sql`select nombre, valor from parameters order by nombre`);
  return Object.fromEntries(list.map((p) => [p.nombre, p.valor]));
}
