import { asArray, oneOrMany } from '@pago/domain/as-array';
import { kindOf, VOUCHER_DESCRIPTIONS, type Family } from '@pago/domain/families';
import { santiagoParts } from '@pago/domain/business-time';
import { maskEmail } from '@pago/domain/call-consultar-pago';
import { type DetallePago, type Pago } from '@pago/domain/schemas/call-consultar-pago';
import type { ProductoPagado } from '@pago/domain/schemas/call-cuenta-vista';
import { MAX_AMOUNT } from '@pago/domain/money';
import { maskProductNumber } from '@pago/domain/products';
import { formatRut } from '@pago/domain/rut';
import type { Tx } from '../db/client';
import type { CoreLineRow } from '../db/schema';
import { findMemberById, lockAccount, setAccountBalance } from '../repositories/member-repository';
import { insertOperation, reservedByPosting } from '../repositories/core-operation-repository';
import { applyToProduct, lockInstalments, lockProducts, payInstalment } from '../repositories/product-repository';
import { heldByAnotherPayment, insertVoucher, itemsOf, moveItem, moveTransaction, nextAuthorizationNumber, type ItemRow, type TransactionRow } from '../repositories/transaction-repository';
import { expectMoved } from '../repositories/moves';
import { appendAudit } from '../repositories/audit-repository';
import { refuse, type Refusal } from './refusal';

export type { TransactionRow } from '../repositories/transaction-repository';
export { voucherOf } from '../repositories/transaction-repository';


export interface PaymentMethod {
  medioPago: 'CUENTA VISTA' | 'WEBPAY';
  /** Own account: the account debited. */
  accountId?: string;
  /** What the voucher shows as the paying account: a masked account or card number. */
  cuentaPago: string;
  /** Per product number: the authorisation number (Webpay's, per store); one number of ours when absent. */
  authorizationCodes?: Record<string, string>;
  /** Only these products are paid (a Mall payment approved store by store); all when absent. */
  productIds?: ReadonlySet<string>;
  /** The core already booked this debit: what it took is applied here whatever changed meanwhile, never refused. */
  bookedByCore?: boolean;
  /** Webpay: per product id, the key of its credit to the core, written to the outbox with the payment. */
  coreKeys?: ReadonlyMap<string, string>;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Locks what paying `items` changes: the products, then the instalments (each by id: the same order on every path,
 * so payments never deadlock). Answers the rows and the items' amounts by instalment and by credited product.
 */
async function lockForPayment(tx: Tx, items: ItemRow[]) {
  const owedByInstalment = sumBy(items, (i) => i.instalmentId);
  const credits = sumBy(items, (i) => (i.instalmentId ? null : i.productId));
  const productRows = await lockProducts(tx, [...new Set(items.map((i) => i.productId))].sort());
  const instalmentIds = [...owedByInstalment.keys()].sort();
  const instalmentRows = await lockInstalments(tx, instalmentIds);
  return { productRows, instalmentRows, instalmentIds, owedByInstalment, credits };
}

type Locked = Awaited<ReturnType<typeof lockForPayment>>;

/**
 * 443 at every call of a payment, not only at selection: an instalment of `trx` is in another transaction's payment
 * under way (an own-account debit posting, a Webpay form open), so this one must not go on and charge it twice.
 * `locked`: under lockForPayment's locks, which call 6's debit and call 10's Webpay intent both take before they
 * write, so of two sessions racing for one instalment the second sees the first. Recorded in the trail.
 */
export async function refuseIfPaidElsewhere(
  tx: Tx,
  trx: TransactionRow,
  at: { call: string; webpayOpenSeconds: number; requestId: string; rutMasked: string | null; locked?: boolean },
): Promise<Refusal<'443'> | null> {
  const items = await itemsOf(tx, trx.idTransaccion);
  if (at.locked) await lockForPayment(tx, items);
  if (!(await heldByAnotherPayment(tx, trx.idTransaccion, items, at.webpayOpenSeconds))) return null;
  await appendAudit(tx, { kind: 'pago.en_curso.rechazado', rutMasked: at.rutMasked, requestId: at.requestId, detail: { idTransaccion: trx.idTransaccion, llamada: at.call, codigo: '443' } });
  return refuse('443');
}

/**
 * Checks, under the locks of lockForPayment and before anything is written, that a transaction's items can still be
 * paid: refuses an item no longer owed (442: paid since the selection, or held by another transaction whose debit is
 * at the core) or a deposit past what a number holds (463).
 */
export async function checkPayable(tx: Tx, trx: TransactionRow, items: ItemRow[]): Promise<({ ok: true } & Locked) | Refusal<'442' | '463'>> {
  const locked = await lockForPayment(tx, items);
  const { productRows, instalmentRows, instalmentIds, owedByInstalment, credits } = locked;
  // A deposit that would take a balance past what a number holds exactly is refused, never stored rounded.
  if (productRows.some((p) => p.saldo + (credits.get(p.id) ?? 0) > MAX_AMOUNT)) return refuse('463');
  const reserved = await reservedByPosting(tx, instalmentIds, trx.idTransaccion);
  for (const [instalmentId, monto] of owedByInstalment) {
    const row = instalmentRows.find((r) => r.id === instalmentId);
    // Paid or reduced since the selection (another tab, another transaction): money must not move twice.
    if (!row || row.montoPendiente - (reserved.get(instalmentId) ?? 0) < monto) return refuse('442');
  }
  return { ok: true, ...locked };
}

/** What an operation asks the core to credit: each product of `items` with the sum of its items. */
export function coreLinesOf(productRows: { id: string; numeroProducto: string; family: Family }[], items: ItemRow[]): CoreLineRow[] {
  const amounts = sumBy(items, (i) => i.productId);
  return productRows.map((p) => ({ productId: p.id, numeroProducto: p.numeroProducto, family: p.family, amount: amounts.get(p.id) ?? 0 }));
}

/**
 * Applies a transaction's frozen items exactly once. Must run inside the database transaction that holds the
 * transaction row's lock (`FOR UPDATE`). Locks the account, then checks the items (checkPayable), debits our copy of
 * the account, reduces instalments or card debt or credits savings, writes the voucher, marks the transaction paid
 * and, for a card payment, writes each product's credit to the core's outbox. Refuses, having written nothing, when
 * the account is gone (440) or an item is no longer owed (442, 463). The account's balance is the core's to judge
 * (core-postings.ts): here it is our copy, lowered by what the core took.
 */
export async function applyPayment(tx: Tx, trx: TransactionRow, method: PaymentMethod, now: Date): Promise<{ ok: true; pagos: Pago[] } | Refusal<'440' | '442' | '463'>> {
  const allItems = await itemsOf(tx, trx.idTransaccion);
  const items = method.productIds ? allItems.filter((i) => method.productIds!.has(i.productId)) : allItems;
  const total = items.reduce((sum, i) => sum + i.monto, 0);

  const account = method.accountId ? await lockAccount(tx, method.accountId) : null;
  if (method.accountId && !account) return refuse('440');
  // What the core booked is applied whatever changed meanwhile; anything else is checked still payable first.
  const payable = method.bookedByCore ? { ok: true as const, ...(await lockForPayment(tx, items)) } : await checkPayable(tx, trx, items);
  if (!payable.ok) return payable;
  const { productRows, instalmentRows, owedByInstalment, credits } = payable;
  // Instalments paid in part stay partly owed: the voucher says so (cantidadCuotas 0, 'Abono parcial').
  const partial = new Set(instalmentRows.filter((r) => (owedByInstalment.get(r.id) ?? 0) < r.montoPendiente).map((r) => r.id));

  if (account) await setAccountBalance(tx, account.id, Math.max(0, account.saldo - total));
  for (const [instalmentId, monto] of owedByInstalment) await payInstalment(tx, instalmentId, monto);
  const debts = sumBy(items, (i) => (i.instalmentId ? i.productId : null));
  for (const product of productRows) await applyToProduct(tx, product.id, { debt: debts.get(product.id), credit: credits.get(product.id) });

  // Webpay gives its own per store; an own-account payment gets one number of ours, unique across payments.
  const own = method.authorizationCodes ? null : await nextAuthorizationNumber(tx);
  const codes = new Map(productRows.map((p) => [p.id, method.authorizationCodes?.[p.numeroProducto] ?? own ?? '']));
  for (const item of allItems) {
    const moved = items.includes(item) ? await moveItem(tx, item.id, 'paid', { authorizationCode: codes.get(item.productId)! }) : await moveItem(tx, item.id, 'rejected');
    expectMoved(moved, 'transaction item');
  }

  const member = await findMemberById(tx, trx.memberId);
  const parts = santiagoParts(now);
  const pagos: Pago[] = productRows.map((product) => ({
    // A voucher outlives the session and may be e-mailed: it shows what the screens show of the number.
    numeroProducto: maskProductNumber(product.numeroProducto),
    descripcionProducto: VOUCHER_DESCRIPTIONS[product.family as Family],
    tipoFamiliaProducto: product.family as Family,
    detallePago: oneOrMany(
      detallesFor(
        product.family as Family,
        items.filter((i) => i.productId === product.id),
        codes.get(product.id)!,
        partial,
      ),
    ),
    rutDeudor: formatRut(member?.rut ?? ''),
    fechaPago: `${parts.year}${pad(parts.month)}${pad(parts.day)}`,
    horaPago: `${pad(parts.hour)}:${pad(parts.minute)}:${pad(now.getUTCSeconds())}`,
    medioPago: method.medioPago,
    idTransaccion: trx.idTransaccion,
    cuentaPago: method.cuentaPago,
    email: member?.email ? maskEmail(member.email) : '',
  }));
  await insertVoucher(tx, trx.idTransaccion, pagos);
  expectMoved(await moveTransaction(tx, trx.idTransaccion, ['pending', 'posting'], 'paid', { medioPago: method.medioPago }), 'transaction to paid');
  if (method.coreKeys) {
    for (const line of coreLinesOf(productRows, items)) {
      const key = method.coreKeys.get(line.productId);
      if (!key) throw new Error(`no core key for product ${line.productId}`);
      await insertOperation(tx, { key, idTransaccion: trx.idTransaccion, kind: 'abono_webpay', amount: line.amount, lines: [line] });
    }
  }
  return { ok: true, pagos };
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

/**
 * Credits: one line per instalment, counting 0 instalments when it was paid in part; participation shares: one line
 * for the count; card and savings: one line.
 */
function detallesFor(family: Family, items: ItemRow[], numeroAutorizacion: string, partial: ReadonlySet<string>): DetallePago[] {
  if (kindOf(family) === 'shares') {
    return [
      {
        numeroCuota: items[0]?.numeroCuota ?? 0,
        montoPagado: items.reduce((sum, i) => sum + i.monto, 0),
        numeroAutorizacion,
        cantidadCuotas: items.length,
      },
    ];
  }
  return items.map((i) => ({ numeroCuota: i.numeroCuota, montoPagado: i.monto, numeroAutorizacion, cantidadCuotas: i.instalmentId && partial.has(i.instalmentId) ? 0 : 1 }));
}

export const maskAccount = (numeroCuenta: string) => maskProductNumber(numeroCuenta);

/** Call 6's answer for a paid transaction: each product with what was paid and its authorisation number. */
export function toProductosPagados(pagos: Pago[]): ProductoPagado[] {
  return pagos.map((p) => {
    const detalles = asArray(p.detallePago);
    return {
      idTransaccion: p.idTransaccion,
      numeroProducto: p.numeroProducto,
      montoPagado: detalles.reduce((sum, d) => sum + d.montoPagado, 0),
      numeroAutorizacion: detalles[0]?.numeroAutorizacion ?? '',
    };
  });
}
