import { FAMILY_NAMES, kindOf, type Family } from '@pago/domain/families';
import { toDayNumber } from '@pago/domain/dates';
import { overdueState, type DetalleCuota, type Producto } from '@pago/domain/products';
import { createHash } from 'node:crypto';
import type { ListedInstalmentRow, ListedProduct } from '../repositories/product-repository';

export const isoToWire = (iso: string) => iso.replaceAll('-', '');

/** Credits and CP show what is still owed; a card shows its statement even when nothing is billed. */
export function payableInstalments<Row extends Pick<ListedInstalmentRow, 'montoPendiente'>>(family: Family, rows: Row[]): Row[] {
  if (kindOf(family) === 'savings') return [];
  if (kindOf(family) === 'card') return rows.slice(-1);
  return rows.filter((r) => r.montoPendiente > 0);
}

/** An instalment as the list answers it, on the business day numbered `todayDay` (days since 1970-01-01). */
function toDetalle(row: ListedInstalmentRow, todayDay: number): DetalleCuota {
  return {
    numeroCuota: row.numeroCuota,
    montoPendiente: row.montoPendiente,
    pagoMinimo: Math.min(row.pagoMinimo, row.montoPendiente),
    fechaVencimiento: isoToWire(row.fechaVencimiento),
    ...overdueState(todayDay - toDayNumber(isoToWire(row.fechaVencimiento))),
    medioPago: row.medioPago ?? '',
  };
}

/** The partial-payment promotion holds until fechaVigenciaAbono (inclusive). */
export function promotionActive(vigencia: string | null, today: string): boolean {
  return vigencia === null || isoToWire(vigencia) >= today;
}

/**
 * The `numeroProducto` a session sees: a reference that names the product only within that session, ending with
 * the number's last four digits, which is all the screens and vouchers show of it. Derived from two random ids, it
 * tells nothing else of the number, and a reference from another session matches nothing.
 */
export function productRef(sessionId: string, product: { id: string; numeroProducto: string }): string {
  const digest = createHash('sha256').update(`${sessionId}:${product.id}`).digest('base64url').slice(0, 16);
  return `${digest}${product.numeroProducto.slice(-4)}`;
}

/**
 * A product as the product list answers it (spec §3), with the state derived on the business day `today`, named by
 * its reference in the session `sessionId`. Only what a screen uses is sent: no debts, limits or instalment counts.
 */
export function toWireProduct({ product, instalments }: ListedProduct, today: string, sessionId: string): Producto | null {
  const family = product.family as Family;
  const payable = payableInstalments(family, instalments);
  if (kindOf(family) !== 'savings' && payable.length === 0) return null;
  const todayDay = toDayNumber(today);
  const detalles = payable.map((row) => toDetalle(row, todayDay));
  const promotion = promotionActive(product.fechaVigenciaAbono, today);
  const savingsEntry: DetalleCuota = {
    numeroCuota: 0,
    montoPendiente: 0,
    pagoMinimo: 0,
    fechaVencimiento: today,
    codigoEstadoCuota: 'A',
    diasMora: 0,
    medioPago: '',
  };
  return {
    tipoFamiliaProducto: family,
    nombreFamiliaProducto: FAMILY_NAMES[family],
    numeroProducto: productRef(sessionId, product),
    listaDetalleProductos: kindOf(family) === 'savings' ? savingsEntry : kindOf(family) === 'card' ? detalles[0]! : detalles,
    permiteAbono: product.permiteAbono && promotion,
    permiteMultipleAbono: product.permiteMultipleAbono && promotion,
    montoMinimoAbonoMultiple: product.montoMinimoAbonoMultiple,
    fechaVigenciaAbono: product.fechaVigenciaAbono ? isoToWire(product.fechaVigenciaAbono) : '',
    ...(kindOf(family) === 'card' && product.fechaFacturacion ? { fechaFacturacion: isoToWire(product.fechaFacturacion) } : {}),
  };
}
