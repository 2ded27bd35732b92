import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';
import { instalments, members, products } from '../db/schema';

export type MemberRow = typeof members.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type InstalmentRow = typeof instalments.$inferSelect;
export interface ProductWithInstalments {
  product: ProductRow;
  instalments: InstalmentRow[];
}

/** The columns the product list's answer is made of (product-view.ts), and no more. */
const LISTED_PRODUCT_COLUMNS = {
  family: products.family,
  numeroProducto: products.numeroProducto,
  permiteAbono: products.permiteAbono,
  permiteMultipleAbono: products.permiteMultipleAbono,
  montoMinimoAbonoMultiple: products.montoMinimoAbonoMultiple,
  fechaVigenciaAbono: products.fechaVigenciaAbono,
  fechaFacturacion: products.fechaFacturacion,
  deudaTotal: products.deudaTotal,
  deudaTotalInternacional: products.deudaTotalInternacional,
  cupoTotal: products.cupoTotal,
  numeroCuotasPactadas: products.numeroCuotasPactadas,
};
const LISTED_INSTALMENT_COLUMNS = {
  numeroCuota: instalments.numeroCuota,
  montoPendiente: instalments.montoPendiente,
  pagoMinimo: instalments.pagoMinimo,
  fechaVencimiento: instalments.fechaVencimiento,
  medioPago: instalments.medioPago,
};
export type ListedProductRow = Pick<ProductRow, keyof typeof LISTED_PRODUCT_COLUMNS>;
export type ListedInstalmentRow = Pick<InstalmentRow, keyof typeof LISTED_INSTALMENT_COLUMNS>;
/** A product as the list reads it: its listed columns, and the instalments it may show (see `listedInstalmentsOnly`). */
export interface ListedProduct {
  product: ListedProductRow;
  instalments: ListedInstalmentRow[];
}

/*
 * A member's products and instalments come back from PostgreSQL as JSON, one value per list, instead of one row per
 * instalment: decoding a credit's 48 instalment rows field by field through the driver and Drizzle cost the API more
 * CPU than the rest of the listing, and one statement instead of three also costs PostgreSQL less. Each row is a JSON
 * array of the columns read (the whole table's, or the list's own), decoded by the columns' own Drizzle decoders, so
 * the rows are the ones a plain select of those columns gives (integers, text, uuids, booleans, dates and timestamps
 * all come through JSON unchanged; product-repository.test.ts compares them with plain selects). The order is the
 * plain selects' too: products by family and number, each product's instalments by due date and number.
 */

/** `alias.column`, always qualified: inside the nested selects an unqualified "id" would name the inner table's. */
const column = (alias: string, c: PgColumn) => sql`${sql.identifier(alias)}.${sql.identifier(c.name)}`;

type JsonRows<Row> = ReturnType<typeof jsonRows<Row>>;

/** Columns as the items of a JSON array, and the decoder of such an array back into a row of those columns. */
function jsonRows<Row>(columns: Record<string, PgColumn>) {
  const entries = Object.entries(columns);
  return {
    columns: (alias: string) =>
      sql.join(
        entries.map(([, c]) => column(alias, c)),
        sql`, `,
      ),
    decode(values: unknown[]): Row {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < entries.length; i++) {
        const [key, c] = entries[i]!;
        const value = values[i];
        row[key] = value === null || value === undefined ? null : c.mapFromDriverValue(value);
      }
      return row as Row;
    },
  };
}

const productJson = jsonRows<ProductRow>(getTableColumns(products));
const instalmentJson = jsonRows<InstalmentRow>(getTableColumns(instalments));
const listedProductJson = jsonRows<ListedProductRow>(LISTED_PRODUCT_COLUMNS);
const listedInstalmentJson = jsonRows<ListedInstalmentRow>(LISTED_INSTALMENT_COLUMNS);

/**
 * The instalments (aliased i) of the product `product` names, oldest first, as a JSON array of rows of `json`'s
 * columns; only those `only` holds for, when given.
 */
const instalmentsOf = (json: { columns: (alias: string) => SQL }, product: SQL, only?: SQL) =>
  sql<unknown[][]>`(select coalesce(json_agg(json_build_array(${json.columns('i')}) order by ${column('i', instalments.fechaVencimiento)}, ${column('i', instalments.numeroCuota)}), '[]') from ${instalments} i where ${column('i', instalments.productId)} = ${product}${only ? sql` and ${only}` : sql``})`;

/*
 * Which instalments the list may show of the product aliased p: a credit's or the shares' still owed, and every
 * statement of a card (product-view.ts shows its latest); a savings account shows none. Paid instalments stay in the
 * database for ever, so a member's list would otherwise grow with every instalment they ever paid. product-view.ts
 * applies the same rule again, so this only spares PostgreSQL and the API the rows nobody shows.
 */
const listedInstalmentsOnly = sql`${column('p', products.family)} <> 'AH' and (${column('p', products.family)} = 'TC' or ${column('i', instalments.montoPendiente)} > 0)`;

/**
 * The products (aliased p) of the member the outer select reads, by family and number, as one JSON value: each one's
 * columns of `product`, then its instalments of `instalment` (those `only.instalments` holds for); only the products
 * `only.products` holds for, when given. `decode` turns the value back into rows.
 */
function productsOfMember<P, I>(product: JsonRows<P>, instalment: JsonRows<I>, only: { products?: SQL; instalments?: SQL }) {
  return {
    sql: sql<unknown[][]>`(select coalesce(json_agg(json_build_array(${product.columns('p')}, ${instalmentsOf(instalment, column('p', products.id), only.instalments)}) order by ${column('p', products.family)}, ${column('p', products.numeroProducto)}), '[]') from ${products} p where ${column('p', products.memberId)} = ${column('members', members.id)}${only.products ? sql` and ${only.products}` : sql``})`,
    decode: (value: unknown[][]): { product: P; instalments: I[] }[] =>
      value.map((values) => ({ product: product.decode(values), instalments: (values[values.length - 1] as unknown[][]).map(instalment.decode) })),
  };
}

/** Each product's listed columns, then the instalments the list may show. */
const listedProducts = productsOfMember(listedProductJson, listedInstalmentJson, { instalments: listedInstalmentsOnly });

/**
 * The product list's read: the member with the RUT in the placeholder `rut`, with every product and the instalments
 * it may show (decode with `decodeListedProducts`), on its own or as part of a statement (the list's, with the
 * captcha's spend and the session, product-service.ts), where `onlyIf` may hold it back.
 */
export const memberWithProducts = (db: DbOrTx, onlyIf?: SQL) =>
  db
    .select({ id: members.id, listNoticeCode: members.listNoticeCode, products: listedProducts.sql.as('products') })
    .from(members)
    .where(onlyIf ? and(eq(members.rut, sql.placeholder('rut')), onlyIf) : eq(members.rut, sql.placeholder('rut')));

export const decodeListedProducts: (value: unknown[][]) => ListedProduct[] = listedProducts.decode;

/**
 * For a select that reads `members`: that member's products of the family in the placeholder `family`, by number,
 * each with every column and all its instalment rows, paid ones included, oldest first. Call 3 checks a selection
 * against these rows (selection-rules.ts); decode the value with `decodeProductsWithInstalments`.
 */
const productsInFamily = productsOfMember(productJson, instalmentJson, { products: sql`${column('p', products.family)} = ${sql.placeholder('family')}` });
export const productsOfMemberInFamily = productsInFamily.sql;
export const decodeProductsWithInstalments: (value: unknown[][]) => ProductWithInstalments[] = productsInFamily.decode;
