import type { Family } from '@pago/domain/families';
import { byAge, detallesOf } from '@pago/domain/products';
import type { DetalleCuota, Producto } from '@pago/domain/products';
import { decodeInstallment, encodeInstallment, type InstallmentEntry } from '@pago/domain/selection';
import type { Selection } from '../../../lib/app-store';
import { ROUTES } from '../../../lib/paths';
import { familiesOf } from '../product-families';

export const productsOfFamily = (products: readonly Producto[], family: Family): Producto[] =>
  products.filter((p) => p.tipoFamiliaProducto === family);

/** A product's instalments, oldest first (the order every rule of step 2 reads them in). */
export const oldestFirst = (producto: Pick<Producto, 'listaDetalleProductos'>): DetalleCuota[] =>
  detallesOf(producto).sort(byAge);

/**
 * Specification §2: 'Volver' goes to the home when the member has only one visible family (step 1 forwarded them
 * here), otherwise back to step 1. The store holds the products already less the families switched off.
 */
export function backPath(products: readonly Producto[]): string {
  return familiesOf(products).length > 1 ? ROUTES.stepOneExpress.path : ROUTES.homeExpress.path;
}

/** Specification §3: number|amount|due date|state|days overdue, for the amount the member pays of `detalle`. */
export function installmentOf(detalle: DetalleCuota, monto: number): string {
  return encodeInstallment({
    numero: String(detalle.numeroCuota),
    monto,
    fecha: detalle.fechaVencimiento,
    estado: detalle.codigoEstadoCuota,
    diasMora: detalle.diasMora,
  });
}

/**
 * What the member chose last time on this family's step 2 (coming back from step 3, or after a reload once
 * they had pressed pay), per product number; null when the stored selection is of another family.
 */
export function previousEntries(selection: Selection, family: Family): Map<string, InstallmentEntry[]> | null {
  if (selection.family !== family) return null;
  const entries = new Map<string, InstallmentEntry[]>();
  for (const { productNumber, installment } of selection.productsToPay) {
    const decoded = installment.map(decodeInstallment);
    if (decoded.every((e): e is InstallmentEntry => e !== null)) entries.set(productNumber, decoded);
  }
  return entries;
}
