import { and, asc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import { kindOf, type Family } from '@pago/domain/families';
import type { Db, DbOrTx, Tx } from '../db/client';
import { instalments, members, products, sessions } from '../db/schema';
import { spendCaptcha } from './captcha-repository';

export type ProductRow = typeof products.$inferSelect;
export type InstalmentRow = typeof instalments.$inferSelect;
export interface ProductWithInstalments {
  product: ProductRow;
  instalments: InstalmentRow[];
}
/** What the product list's answer is made of (product-view.ts): any product row with its instalments will do. */
export type ListedProductRow = Pick<
  ProductRow,
  | 'id'
  | 'family'
  | 'numeroProducto'
  | 'permiteAbono'
  | 'permiteMultipleAbono'
  | 'montoMinimoAbonoMultiple'
  | 'fechaVigenciaAbono'
  | 'fechaFacturacion'
>;
export type ListedInstalmentRow = Pick<InstalmentRow, 'numeroCuota' | 'montoPendiente' | 'pagoMinimo' | 'fechaVencimiento' | 'medioPago'>;
export interface ListedProduct {
  product: ListedProductRow;
  instalments: ListedInstalmentRow[];
}

/** The products given, each with its instalments oldest first (all of them, or only those `which` keeps). */
async function withInstalments(db: DbOrTx, productRows: ProductRow[], which?: SQL): Promise<ProductWithInstalments[]> {
  if (productRows.length === 0) return [];
  const ids = productRows.map((p) => p.id);
  const rows = await db
    .select()
    .from(instalments)
    .where(and(inArray(instalments.productId, ids), which))
    .orderBy(asc(instalments.fechaVencimiento), asc(instalments.numeroCuota));
  return productRows.map((product) => ({ product, instalments: rows.filter((i) => i.productId === product.id) }));
}

/** What call 2 answers: null for a captcha already spent, the member's list notice, or the list. */
export type Listing = null | { notice: string } | { sessionId: string; products: ListedProduct[] };

/**
 * Call 2's work, in one transaction: spends the captcha, reads the member's notice, opens a session for `rut` under
 * `tokenHash` and reads the products by family and number, each with the instalments the list may show, oldest
 * first. A replayed captcha reads and opens nothing; a RUT that is not a member gets a session and no products.
 */
export function spendAndListProducts(db: Db, spend: { signature: string; expiresAt: Date }, rut: string, tokenHash: string): Promise<Listing> {
  return db.transaction(async (tx) => {
    if (!(await spendCaptcha(tx, spend.signature, spend.expiresAt))) return null;
    const [member] = await tx.select({ id: members.id, notice: members.listNoticeCode }).from(members).where(eq(members.rut, rut));
    if (member?.notice) return { notice: member.notice };
    const [session] = await tx.insert(sessions).values({ tokenHash, rut }).returning({ id: sessions.id });
    return { sessionId: session!.id, products: member ? await listedProducts(tx, member.id) : [] };
  });
}

async function listedProducts(tx: Tx, memberId: string): Promise<ListedProduct[]> {
  const productRows = await tx
    .select({
      id: products.id,
      family: products.family,
      numeroProducto: products.numeroProducto,
      permiteAbono: products.permiteAbono,
      permiteMultipleAbono: products.permiteMultipleAbono,
      montoMinimoAbonoMultiple: products.montoMinimoAbonoMultiple,
      fechaVigenciaAbono: products.fechaVigenciaAbono,
      fechaFacturacion: products.fechaFacturacion,
    })
    .from(products)
    .where(eq(products.memberId, memberId))
    .orderBy(asc(products.family), asc(products.numeroProducto));
  // Paid instalments stay for ever: only those the list may show are read (product-view.ts): none of a savings
  // account, every statement of a card, the owed ones of the others.
  const withInstalments = productRows.filter((p) => kindOf(p.family) !== 'savings');
  const showingAll = withInstalments.filter((p) => kindOf(p.family) === 'card').map((p) => p.id);
  const rows =
    withInstalments.length === 0
      ? []
      : await tx
          .select({
            productId: instalments.productId,
            numeroCuota: instalments.numeroCuota,
            montoPendiente: instalments.montoPendiente,
            pagoMinimo: instalments.pagoMinimo,
            fechaVencimiento: instalments.fechaVencimiento,
            medioPago: instalments.medioPago,
          })
          .from(instalments)
          .where(
            and(
              inArray(instalments.productId, withInstalments.map((p) => p.id)),
              or(gt(instalments.montoPendiente, 0), showingAll.length > 0 ? inArray(instalments.productId, showingAll) : undefined),
            ),
          )
          .orderBy(asc(instalments.fechaVencimiento), asc(instalments.numeroCuota));
  return productRows.map((product) => ({
    product,
    instalments: rows.filter((i) => i.productId === product.id).map(({ productId: _product, ...instalment }) => instalment),
  }));
}

/** Call 3's read: the member's products of one family with all their instalments, paid ones included. */
export async function productsInFamily(db: DbOrTx, memberId: string, family: Family): Promise<ProductWithInstalments[]> {
  const productRows = await db
    .select()
    .from(products)
    .where(and(eq(products.memberId, memberId), eq(products.family, family)))
    .orderBy(asc(products.numeroProducto));
  return withInstalments(db, productRows);
}

export async function productNumbers(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: products.id, numeroProducto: products.numeroProducto }).from(products).where(inArray(products.id, ids));
  return new Map(rows.map((r) => [r.id, r.numeroProducto]));
}

/*
 * A payment's locks, in the payment's fixed order (products, then instalments, each by id). 'no key update': only
 * amounts change, never a key, so other transactions' foreign-key checks on these rows need not wait for a payment.
 */
export function lockProducts(tx: Tx, ids: string[]): Promise<ProductRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return tx.select().from(products).where(inArray(products.id, ids)).orderBy(asc(products.id)).for('no key update');
}

export function lockInstalments(tx: Tx, ids: string[]): Promise<InstalmentRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return tx.select().from(instalments).where(inArray(instalments.id, ids)).orderBy(asc(instalments.id)).for('no key update');
}

/** Reduces an instalment by `monto` (its minimum payment too), marking it paid when nothing is left. */
export async function payInstalment(tx: Tx, id: string, monto: number): Promise<void> {
  await tx
    .update(instalments)
    .set({
      // Never below zero: a debit the core booked is applied even if a load said meanwhile that it was paid.
      montoPendiente: sql`greatest(${instalments.montoPendiente} - ${monto}, 0)`,
      pagoMinimo: sql`greatest(${instalments.pagoMinimo} - ${monto}, 0)`,
      paidAt: sql`case when ${instalments.montoPendiente} - ${monto} <= 0 then now() else null end`,
    })
    .where(eq(instalments.id, id));
}

/** A reversed payment's instalment (decision 050): owed again by what it had paid. */
export async function restoreInstalment(tx: Tx, id: string, monto: number): Promise<void> {
  await tx
    .update(instalments)
    .set({ montoPendiente: sql`${instalments.montoPendiente} + ${monto}`, pagoMinimo: sql`${instalments.pagoMinimo} + ${monto}`, paidAt: null })
    .where(eq(instalments.id, id));
}

/** A product's debt reduced by `debt` (not below zero) and its balance credited with `credit` (savings). */
export async function applyToProduct(tx: Tx, id: string, change: { debt?: number | undefined; credit?: number | undefined }): Promise<void> {
  const { debt, credit } = change;
  if (debt === undefined && credit === undefined) return;
  await tx
    .update(products)
    .set({
      ...(debt !== undefined && { deudaTotal: sql`greatest(${products.deudaTotal} - ${debt}, 0)` }),
      ...(credit !== undefined && { saldo: sql`${products.saldo} + ${credit}` }),
    })
    .where(eq(products.id, id));
}

export async function productByNumber(db: DbOrTx, numeroProducto: string): Promise<Pick<ProductRow, 'id' | 'memberId' | 'family'> | null> {
  const [row] = await db.select({ id: products.id, memberId: products.memberId, family: products.family }).from(products).where(eq(products.numeroProducto, numeroProducto));
  return row ?? null;
}

/** The nightly load's product, by number: inserted, or everything but its owner, number and family updated. */
export async function upsertProduct(tx: Tx, values: Omit<typeof products.$inferInsert, 'id' | 'createdAt'>): Promise<string> {
  const { memberId: _member, numeroProducto: _number, family: _family, ...updatable } = values;
  const [row] = await tx.insert(products).values(values).onConflictDoUpdate({ target: products.numeroProducto, set: updatable }).returning({ id: products.id });
  return row!.id;
}

/** The nightly load's instalment, by product and number; one with nothing pending is paid (since its first load). */
export async function upsertInstalment(tx: Tx, values: Omit<typeof instalments.$inferInsert, 'id' | 'paidAt'>): Promise<void> {
  const { productId: _product, numeroCuota: _number, ...updatable } = values;
  const paid = values.montoPendiente === 0;
  await tx
    .insert(instalments)
    .values({ ...values, paidAt: paid ? sql`now()` : null })
    .onConflictDoUpdate({
      target: [instalments.productId, instalments.numeroCuota],
      set: { ...updatable, paidAt: paid ? sql`coalesce(${instalments.paidAt}, now())` : null },
    });
}
