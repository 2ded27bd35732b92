import type { ProductoSeleccionado, SeleccionarProductoRequest } from '@pago/domain/schemas/call-seleccionar';
import { CANAL } from '@pago/domain/channel';
import { kindOf, type Family } from '@pago/domain/families';
import type { Producto } from '@pago/domain/products';
import { decodeInstallment, type InstallmentEntry } from '@pago/domain/selection';
import type { Selection } from '../../lib/app-store';

/** A product of the member's selection with its decoded installment strings. */
export interface SelectedProduct {
  product: Producto;
  entries: InstallmentEntry[];
}

/**
 * The step-2 selection of `family`, matched against the product list. null when there is nothing to pay for this
 * family, or when something does not match (another family, an unknown product, an unreadable installment string):
 * step 3 then sends the member back to step 2 rather than send a selection the server would refuse.
 */
export function resolveSelection(
  selection: Selection,
  products: readonly Producto[],
  family: Family,
): SelectedProduct[] | null {
  if (selection.family !== family || selection.productsToPay.length === 0) return null;
  const resolved: SelectedProduct[] = [];
  for (const { productNumber, installment } of selection.productsToPay) {
    const product = products.find((p) => p.numeroProducto === productNumber && p.tipoFamiliaProducto === family);
    if (!product || installment.length === 0) return null;
    const entries: InstallmentEntry[] = [];
    for (const text of installment) {
      const entry = decodeInstallment(text);
      if (!entry || entry.monto <= 0) return null;
      entries.push(entry);
    }
    resolved.push({ product, entries });
  }
  return resolved;
}

/** Specification §3 'Transaction request product': for a savings deposit the cuota is "0" and the date "0". */
export function toProductoSeleccionado({ product, entries }: SelectedProduct): ProductoSeleccionado {
  const deposit = kindOf(product.tipoFamiliaProducto) === 'savings';
  return {
    numeroProducto: product.numeroProducto,
    tipoFamiliaProducto: product.tipoFamiliaProducto,
    nombreFamiliaProducto: product.nombreFamiliaProducto,
    detalleProducto: entries.map((entry) => ({
      numeroCuota: deposit ? '0' : entry.numero,
      valorAPagar: entry.monto,
      fechaVencimiento: deposit ? '0' : entry.fecha,
    })),
  };
}

/** Call 3's body. The server re-validates all of it and computes the total itself. */
export function toSeleccionarRequest(
  selected: readonly SelectedProduct[],
  session: { rut: string; token: string },
): SeleccionarProductoRequest {
  return {
    seleccionarProductoRequest: {
      userId: session.rut,
      canalLlamada: CANAL,
      token: session.token,
      rut: session.rut,
      producto: selected.map(toProductoSeleccionado),
    },
  };
}
