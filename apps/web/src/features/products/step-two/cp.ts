import type { Family } from '@pago/domain/families';
import { digitsOnly } from '@pago/domain/money';
import type { DetalleCuota, Producto } from '@pago/domain/products';
import { cpCountError, isValidCpCount } from '@pago/domain/selection';
import type { Selection } from '../../../lib/app-store';
import { installmentOf, oldestFirst, previousEntries } from './common';

// Step 2 for participation shares (CP), specification §2, §4 'CP' and §5 'CP instalment count'.

export interface CpProduct {
  numeroProducto: string;
  /** The owed instalments, oldest first. */
  instalments: DetalleCuota[];
  /** The value of one instalment: the pending amount of the oldest. */
  unitValue: number;
  /** How many instalments the member may pay. */
  accumulated: number;
}

export function cpView(products: readonly Producto[]): CpProduct[] {
  return products.flatMap((p) => {
    const instalments = oldestFirst(p);
    const oldest = instalments[0];
    if (!oldest) return [];
    return [{ numeroProducto: p.numeroProducto, instalments, unitValue: oldest.montoPendiente, accumulated: instalments.length }];
  });
}

/** The count field keeps digits only. */
export const cpCountText = (text: string) => digitsOnly(text);

export interface CpLine {
  product: CpProduct;
  count: number;
  /** 'Excedes el máximo de cuotas' above the accumulated instalments. */
  error: string | null;
  valid: boolean;
  /** The N oldest instalments. */
  paid: DetalleCuota[];
  /** What they add up to: the unit value times the count, as every share instalment has the same value. */
  total: number;
}

export function cpLine(product: CpProduct, text: string): CpLine {
  const count = text === '' ? 0 : Number(text);
  const valid = isValidCpCount(count, product.accumulated);
  const paid = valid ? product.instalments.slice(0, count) : [];
  return {
    product,
    count,
    error: cpCountError(count, product.accumulated),
    valid,
    paid,
    total: paid.reduce((sum, d) => sum + d.montoPendiente, 0),
  };
}

/** Specification §4: the button waits for a count between 1 and the accumulated instalments. */
export const canPayCp = (lines: readonly CpLine[], texts: Readonly<Record<string, string>>) =>
  lines.some((line) => line.valid) &&
  lines.every((line) => line.valid || (texts[line.product.numeroProducto] ?? '') === '');

export function cpSelection(family: Family, lines: readonly CpLine[]): Selection {
  const paying = lines.filter((line) => line.valid);
  return {
    family,
    productsToPay: paying.map((line) => ({
      productNumber: line.product.numeroProducto,
      installment: line.paid.map((d) => installmentOf(d, d.montoPendiente)),
    })),
    amount: paying.reduce((sum, line) => sum + line.total, 0),
  };
}

/** The counts the member chose before (back from step 3), or empty fields. */
export function initialCpTexts(products: readonly CpProduct[], selection: Selection, family: Family): Record<string, string> {
  const previous = previousEntries(selection, family);
  return Object.fromEntries(
    products.map((p) => {
      const count = previous?.get(p.numeroProducto)?.length ?? 0;
      return [p.numeroProducto, count > 0 && count <= p.accumulated ? String(count) : ''];
    }),
  );
}
