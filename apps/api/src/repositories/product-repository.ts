import type { Family } from '@pago/domain/families';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { instalments, members, products } from '../db/schema';

export type MemberRow = typeof members.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type InstalmentRow = typeof instalments.$inferSelect;
export interface ProductWithInstalments {
  product: ProductRow;
  instalments: InstalmentRow[];
}

export async function findMemberByRut(db: DbOrTx, rut: string): Promise<MemberRow | null> {
  const rows = await db.select().from(members).where(eq(members.rut, rut));
  return rows[0] ?? null;
}

/** A member's products (optionally of one family) with all their instalment rows, oldest first. */
export async function loadMemberProducts(db: DbOrTx, memberId: string, family?: Family): Promise<ProductWithInstalments[]> {
  const productRows = await db
    .select()
    .from(products)
    .where(family ? and(eq(products.memberId, memberId), eq(products.family, family)) : eq(products.memberId, memberId))
    .orderBy(asc(products.family), asc(products.numeroProducto));
  if (productRows.length === 0) return [];
  const instalmentRows = await db
    .select()
    .from(instalments)
    .where(
      inArray(
        instalments.productId,
        productRows.map((p) => p.id),
      ),
    )
    .orderBy(asc(instalments.fechaVencimiento), asc(instalments.numeroCuota));
  return productRows.map((product) => ({
    product,
    instalments: instalmentRows.filter((i) => i.productId === product.id),
  }));
}
