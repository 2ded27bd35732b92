import { santiagoParts } from '@pago/domain/business-time';
import { DESCRIPCION_PRODUCTO, maskEmail, type DetallePago, type Pago } from '@pago/domain/call-consultar-pago';
import type { Family } from '@pago/domain/families';
import { maskProductNumber } from '@pago/domain/products';
import { formatRut } from '@pago/domain/rut';
import { and, asc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { DbOrTx, Tx } from '../db/client';
import { inOneStatement } from '../db/one-statement';
import { preparedPerHandle } from '../db/prepared';
import { accounts, instalments, members, products, transactionItems, transactions, vouchers } from '../db/schema';

export type TransactionRow = typeof transactions.$inferSelect;
type ItemRow = typeof transactionItems.$inferSelect;

/** An expected refusal inside a payment: thrown to roll the whole database transaction back. */
export class PaymentRefused extends Error {
  constructor(readonly codigo: string) {
    super(`payment refused: ${codigo}`);
  }
}

export interface PaymentMethod {
  medioPago: 'CUENTA VISTA' | 'WEBPAY';
  /** Own account: the account debited. */
  accountId?: string;
  /** What the voucher shows as the paying account: a masked account or card number. */
  cuentaPago: string;
  /** Per product: the authorisation number (Webpay's per store); generated when absent. */
  authorizationCodes?: Record<string, string>;
  /** Only these products are paid (a Mall payment approved store by store); all when absent. */
  productIds?: ReadonlySet<string>;
}

const pad = (n: number) => String(n).padStart(2, '0');

/*
 * applyPayment's reads and locks, prepared once per pooled connection when the payment runs in inTransaction
 * (db/prepared.ts). The lists of ids are one array parameter, so that one statement serves any number of them.
 */
const itemsOf = preparedPerHandle('payment_items', (db) =>
  db
    .select()
    .from(transactionItems)
    .where(eq(transactionItems.idTransaccion, sql.placeholder('idTransaccion')))
    .orderBy(asc(transactionItems.productId), asc(transactionItems.numeroCuota)),
);
const lockAccount = preparedPerHandle('payment_lock_account', (db) =>
  db.select().from(accounts).where(eq(accounts.id, sql.placeholder('id'))).for('no key update'),
);
const lockProducts = preparedPerHandle('payment_lock_products', (db) =>
  db
    .select()
    .from(products)
    .where(sql`${products.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(products.id))
    .for('no key update'),
);
const lockInstalments = preparedPerHandle('payment_lock_instalments', (db) =>
  db
    .select()
    .from(instalments)
    .where(sql`${instalments.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .orderBy(asc(instalments.id))
    .for('no key update'),
);
const memberById = preparedPerHandle('payment_member', (db) => db.select().from(members).where(eq(members.id, sql.placeholder('id'))));

/**
 * Applies a pending transaction's frozen items exactly once. Must run inside the database transaction that holds
 * the transaction row's lock (`FOR UPDATE`). Locks the account and the product and instalment rows in a fixed
 * order, re-checks that every item is still owed, debits the account, reduces instalments or card debt or credits
 * savings, writes the voucher and marks the transaction paid. Throws PaymentRefused (and so rolls back) when an
 * item is no longer owed (442) or the balance is short (47203).
 */
export async function applyPayment(
  tx: Tx,
  trx: TransactionRow,
  method: PaymentMethod,
  now: Date,
  /** Written in the same statement as the payment (its audit line). */
  alsoWrite: readonly SQLWrapper[] = [],
): Promise<Pago[]> {
  const allItems = await itemsOf(tx).execute({ idTransaccion: trx.idTransaccion });
  const items = method.productIds ? allItems.filter((i) => method.productIds!.has(i.productId)) : allItems;
  const total = items.reduce((sum, i) => sum + i.monto, 0);
  const productIds = [...new Set(items.map((i) => i.productId))].sort();
  const instalmentIds = items.flatMap((i) => (i.instalmentId ? [i.instalmentId] : [])).sort();

  // Lock order: account, products, instalments (each by id), the same on every path, so payments never deadlock.
  // 'no key update': only balances and amounts change, never a key, so other transactions' foreign-key checks on
  // these rows (a login setting transactions.account_id, a selection inserting its items) need not wait for a
  // payment, which would close a cycle with it (PostgreSQL reported 'deadlock detected' under load).
  let balanceAfter: number | null = null;
  if (method.accountId) {
    const [account] = await lockAccount(tx).execute({ id: method.accountId });
    if (!account) throw new PaymentRefused('440');
    if (account.saldo < total) throw new PaymentRefused('47203');
    balanceAfter = account.saldo - total;
  }
  const productRows = await lockProducts(tx).execute({ ids: productIds });
  const instalmentRows = instalmentIds.length ? await lockInstalments(tx).execute({ ids: instalmentIds }) : [];

  const owedByInstalment = sumBy(items, (i) => i.instalmentId);
  for (const [instalmentId, monto] of owedByInstalment) {
    const row = instalmentRows.find((r) => r.id === instalmentId);
    // Paid or reduced since the selection (another tab, another transaction): money must not move twice.
    if (!row || row.montoPendiente < monto) throw new PaymentRefused('442');
  }

  const codes = new Map<string, string>();
  for (const p of productRows) {
    codes.set(p.id, method.authorizationCodes?.[p.numeroProducto] ?? String(randomInt(100_000, 1_000_000)));
  }
  const [member] = await memberById(tx).execute({ id: trx.memberId });
  const parts = santiagoParts(now);
  const pagos: Pago[] = productRows.map((product) => {
    const own = items.filter((i) => i.productId === product.id);
    return {
      numeroProducto: product.numeroProducto,
      descripcionProducto: DESCRIPCION_PRODUCTO[product.family as Family],
      detallePago: oneOrMany(detallesFor(product.family as Family, own, codes.get(product.id)!)),
      rutDeudor: formatRut(member?.rut ?? ''),
      fechaPago: `${parts.year}${pad(parts.month)}${pad(parts.day)}`,
      horaPago: `${pad(parts.hour)}:${pad(parts.minute)}:${pad(now.getUTCSeconds())}`,
      medioPago: method.medioPago,
      idTransaccion: trx.idTransaccion,
      cuentaPago: method.cuentaPago,
      email: member?.email ? maskEmail(member.email) : '',
    };
  });

  // Every write of the payment in one statement (inOneStatement): each row is written once, so what one item
  // would change twice (two items of one product, or of one instalment) is summed first; greatest(x - a, 0) then
  // greatest(… - b, 0) equals greatest(x - (a + b), 0) for amounts that are never negative. The rows are already
  // locked above, in the fixed order; one statement instead of one per row spares a round trip per row.
  const writes: SQLWrapper[] = [];
  if (method.accountId && balanceAfter !== null) {
    writes.push(tx.update(accounts).set({ saldo: balanceAfter }).where(eq(accounts.id, method.accountId)));
  }
  for (const [instalmentId, monto] of owedByInstalment) {
    writes.push(
      tx
        .update(instalments)
        .set({
          montoPendiente: sql`${instalments.montoPendiente} - ${monto}`,
          pagoMinimo: sql`greatest(${instalments.pagoMinimo} - ${monto}, 0)`,
          paidAt: sql`case when ${instalments.montoPendiente} - ${monto} = 0 then now() else null end`,
        })
        .where(eq(instalments.id, instalmentId)),
    );
  }
  const debts = sumBy(items, (i) => (i.instalmentId ? i.productId : null));
  const credits = sumBy(items, (i) => (i.instalmentId ? null : i.productId));
  for (const product of productRows) {
    const debt = debts.get(product.id);
    const credit = credits.get(product.id);
    if (debt === undefined && credit === undefined) continue;
    writes.push(
      tx
        .update(products)
        .set({
          ...(debt !== undefined && { deudaTotal: sql`greatest(${products.deudaTotal} - ${debt}, 0)` }),
          ...(credit !== undefined && { saldo: sql`${products.saldo} + ${credit}` }),
        })
        .where(eq(products.id, product.id)),
    );
  }
  for (const item of allItems) {
    const paid = items.includes(item);
    writes.push(
      tx
        .update(transactionItems)
        .set(paid ? { status: 'paid', authorizationCode: codes.get(item.productId)! } : { status: 'rejected' })
        .where(eq(transactionItems.id, item.id)),
    );
  }
  writes.push(tx.insert(vouchers).values({ idTransaccion: trx.idTransaccion, payload: pagos }));
  const settled = tx
    .update(transactions)
    .set({ status: 'paid', medioPago: method.medioPago, settledAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(transactions.idTransaccion, trx.idTransaccion), eq(transactions.status, 'pending')));
  await inOneStatement(tx, [...writes, ...alsoWrite], settled);
  return pagos;
}

/** The items' amounts summed by a key (an instalment, a product); items without one are left out. */
function sumBy(items: ItemRow[], key: (item: ItemRow) => string | null): Map<string, number> {
  const sums = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (k !== null) sums.set(k, (sums.get(k) ?? 0) + item.monto);
  }
  return sums;
}

/** Spec §3: detallePago is an object when there is one line, a list otherwise. */
const oneOrMany = <T>(list: T[]): T | T[] => (list.length === 1 ? list[0]! : list);

/** Credits: one line per instalment; participation shares: one line for the count; card and savings: one line. */
function detallesFor(family: Family, items: ItemRow[], numeroAutorizacion: string): DetallePago[] {
  if (family === 'CP') {
    return [
      {
        numeroCuota: items[0]?.numeroCuota ?? 0,
        montoPagado: items.reduce((sum, i) => sum + i.monto, 0),
        numeroAutorizacion,
        cantidadCuotas: items.length,
      },
    ];
  }
  return items.map((i) => ({ numeroCuota: i.numeroCuota, montoPagado: i.monto, numeroAutorizacion, cantidadCuotas: 1 }));
}

/** The voucher already written for a paid transaction. */
export async function voucherOf(db: DbOrTx, idTransaccion: string): Promise<Pago[] | null> {
  const [row] = await db.select().from(vouchers).where(eq(vouchers.idTransaccion, idTransaccion));
  return row ? (row.payload as Pago[]) : null;
}

export const maskAccount = (numeroCuenta: string) => maskProductNumber(numeroCuenta);
