import { paymentColumns } from './transaction-repository';
import type { TransactionStatus } from '@pago/domain/payment-states';
import { aliasedTable, and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { accounts, members, transactions, vouchers } from '../db/schema';

/** What an operator may search payments by; every given filter must hold. */
export interface PaymentFilter {
  /** A transaction id, a voucher's verification code or a Webpay buy order (the mall's or a store's), exactly. */
  referencia?: string | undefined;
  /** A canonical RUT: the beneficiary's or the payer's. */
  rut?: string | undefined;
  monto?: number | undefined;
  /** Created from and until these days in Santiago, 'YYYY-MM-DD', both included. */
  desde?: string | undefined;
  hasta?: string | undefined;
  estado?: TransactionStatus | undefined;
  medioPago?: string | undefined;
}

const payer = aliasedTable(members, 'payer');
const beneficiary = aliasedTable(members, 'beneficiary');

function conditionsOf(filter: PaymentFilter): SQL | undefined {
  const ref = filter.referencia;
  return and(
    ref
      ? or(
          eq(transactions.idTransaccion, ref.toLowerCase()),
          sql`exists (select 1 from ${vouchers} v where v.id_transaccion = ${transactions.idTransaccion} and upper(v.verification_code) = upper(${ref}))`,
          sql`exists (select 1 from webpay_attempts a where a.id_transaccion = ${transactions.idTransaccion} and (a.buy_order = ${ref} or a.stores @> jsonb_build_array(jsonb_build_object('buyOrder', ${ref}::text))))`,
        )
      : undefined,
    filter.rut ? or(eq(beneficiary.rut, filter.rut), eq(transactions.payerRut, filter.rut)) : undefined,
    filter.monto !== undefined ? eq(transactions.total, filter.monto) : undefined,
    filter.desde ? sql`(${transactions.createdAt} at time zone 'America/Santiago')::date >= ${filter.desde}::date` : undefined,
    filter.hasta ? sql`(${transactions.createdAt} at time zone 'America/Santiago')::date <= ${filter.hasta}::date` : undefined,
    filter.estado ? eq(transactions.status, filter.estado) : undefined,
    filter.medioPago ? eq(transactions.medioPago, filter.medioPago) : undefined,
  );
}

/** One page of the payments matching the filter, newest first, with the total count of matches. */
export async function searchPayments(db: DbOrTx, filter: PaymentFilter, page: { offset: number; limit: number }) {
  const where = conditionsOf(filter);
  const rows = await db
    .select({
      ...paymentColumns,
      rutSocio: beneficiary.rut,
      rutPagador: transactions.payerRut,
      nombrePagador: sql<string | null>`(select p.name from ${members} p where p.rut = ${transactions.payerRut})`,
      cuenta: accounts.numeroCuenta,
      codigoVerificacion: vouchers.verificationCode,
      ordenesCompra: sql<string[] | null>`(select array_agg(a.buy_order order by a.created_at) from webpay_attempts a where a.id_transaccion = ${transactions.idTransaccion})`,
    })
    .from(transactions)
    .innerJoin(beneficiary, eq(beneficiary.id, transactions.memberId))
    .leftJoin(accounts, eq(accounts.id, transactions.accountId))
    .leftJoin(vouchers, eq(vouchers.idTransaccion, transactions.idTransaccion))
    .where(where)
    .orderBy(desc(transactions.createdAt), desc(transactions.idTransaccion))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db
    .select({ n: count() })
    .from(transactions)
    .innerJoin(beneficiary, eq(beneficiary.id, transactions.memberId))
    .where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

/** What a member paid from their own account for other members' products (they are the payer, not the holder). */
export function paidForOthers(db: DbOrTx, memberId: string, rut: string, limit: number) {
  return db
    .select({
      ...paymentColumns,
      rutSocio: beneficiary.rut,
      cuenta: accounts.numeroCuenta,
    })
    .from(transactions)
    .innerJoin(beneficiary, eq(beneficiary.id, transactions.memberId))
    .leftJoin(accounts, eq(accounts.id, transactions.accountId))
    .where(and(eq(transactions.payerRut, rut), sql`${transactions.memberId} <> ${memberId}`))
    .orderBy(desc(transactions.createdAt))
    .limit(limit);
}

/** Who paid a transaction from their own account, and from which account; null before a payer logged in. */
export async function payerOf(db: DbOrTx, idTransaccion: string): Promise<{ rut: string; nombre: string | null; cuenta: string | null; titular: boolean } | null> {
  const [row] = await db
    .select({ rut: transactions.payerRut, nombre: payer.name, cuenta: accounts.numeroCuenta, titular: sql<boolean>`${payer.id} = ${transactions.memberId}` })
    .from(transactions)
    .leftJoin(payer, eq(payer.rut, transactions.payerRut))
    .leftJoin(accounts, eq(accounts.id, transactions.accountId))
    .where(eq(transactions.idTransaccion, idTransaccion));
  if (!row?.rut) return null;
  return { rut: row.rut, nombre: row.nombre, cuenta: row.cuenta, titular: row.titular === true };
}
