import { DESCRIPCION_PRODUCTO, MEDIO_PAGO_CUENTA_VISTA, PAYMENT_METHOD_LABELS, voucherLineLabel } from '@pago/domain/call-consultar-pago-plain';
import type { Pago } from '@pago/domain/call-consultar-pago';
import { asArray } from '@pago/domain/as-array';
import { isWireDate, wireToScreen } from '@pago/domain/dates';
import { FAMILIES, FAMILY_NAMES } from '@pago/domain/families';
import { maskProductNumber } from '@pago/domain/products-plain';

/** One line of a paid product: 'Cuota Nº 38', '3 cuotas' (participation shares), 'Monto depositado'. */
export interface VoucherLine {
  label: string;
  amount: number;
}

export interface VoucherProduct {
  /** The family's name when the description is one of the catalogue's, else the description as sent. */
  name: string;
  /** Masked: only the last four characters show. */
  number: string;
  /** The authorisation number(s) of the product's payment, as sent (one per product in practice). */
  authorisation: string;
  lines: VoucherLine[];
  /** How many instalments were paid (cantidadCuotas added up): credits and shares only, else null. */
  instalments: number | null;
  subtotal: number;
}

export interface VoucherView {
  idTransaccion: string;
  total: number;
  /** dd/mm/yyyy */
  date: string;
  /** HH:MM:SS, as call 7 sends it (business time). */
  time: string;
  /** 'Debito' or 'Webpay' (specification §9). */
  paymentMethod: string;
  /** The account or card paid from: 'Cuenta Vista ****5601', '**** 6623'. */
  account: string;
  rutDeudor: string;
  products: VoucherProduct[];
}

const NAME_BY_DESCRIPTION: ReadonlyMap<string, string> = new Map(
  FAMILIES.map((family) => [DESCRIPCION_PRODUCTO[family], FAMILY_NAMES[family]]),
);
/** A deposit and a card payment are an amount, not instalments. */
const BY_AMOUNT: ReadonlySet<string> = new Set([DESCRIPCION_PRODUCTO.AH, DESCRIPCION_PRODUCTO.TC]);

/** The voucher as the screen shows it, from call 7's payments (one per product of the transaction). */
export function voucherView(pagos: readonly Pago[]): VoucherView | null {
  const [first] = pagos;
  if (!first) return null;
  const products = pagos.map((pago): VoucherProduct => {
    const detalles = asArray(pago.detallePago);
    const lines = detalles.map((d) => ({ label: voucherLineLabel(pago.descripcionProducto, d), amount: d.montoPagado }));
    const byInstalments = !BY_AMOUNT.has(pago.descripcionProducto);
    return {
      name: NAME_BY_DESCRIPTION.get(pago.descripcionProducto) ?? pago.descripcionProducto,
      number: maskProductNumber(pago.numeroProducto),
      authorisation: [...new Set(detalles.map((d) => d.numeroAutorizacion).filter(Boolean))].join(', '),
      lines,
      instalments: byInstalments ? detalles.reduce((sum, d) => sum + d.cantidadCuotas, 0) : null,
      subtotal: lines.reduce((sum, line) => sum + line.amount, 0),
    };
  });
  return {
    idTransaccion: first.idTransaccion,
    total: products.reduce((sum, product) => sum + product.subtotal, 0),
    date: isWireDate(first.fechaPago) ? wireToScreen(first.fechaPago) : first.fechaPago,
    time: first.horaPago,
    paymentMethod: PAYMENT_METHOD_LABELS[first.medioPago] ?? first.medioPago,
    account: first.medioPago === MEDIO_PAGO_CUENTA_VISTA ? `Cuenta Vista ${first.cuentaPago}` : first.cuentaPago,
    rutDeudor: first.rutDeudor,
    products,
  };
}

/** The factor query parameter of the voucher URL, as the member knows it. */
export function factorLabel(factor: string | null): string | null {
  if (!factor) return null;
  if (factor === 'TCOO') return 'Tarjeta de coordenadas';
  return /^Pass[A-Za-z0-9]{1,30}$/.test(factor) ? factor : null;
}
