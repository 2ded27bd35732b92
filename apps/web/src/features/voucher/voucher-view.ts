import { DESCRIPCION_PRODUCTO, MEDIO_PAGO_CUENTA_VISTA, MEDIO_PAGO_WEBPAY, type Pago } from '@pago/domain/call-consultar-pago';
import { asArray } from '@pago/domain/as-array';
import { isWireDate, wireToScreen } from '@pago/domain/dates';
import { FAMILIES, FAMILY_NAMES } from '@pago/domain/families';
import { maskProductNumber } from '@pago/domain/products';

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
  authorisation: string;
  lines: VoucherLine[];
  subtotal: number;
}

export interface VoucherView {
  idTransaccion: string;
  total: number;
  /** dd/mm/yyyy */
  date: string;
  /** HH:MM */
  time: string;
  paymentMethod: string;
  account: string;
  rutDeudor: string;
  products: VoucherProduct[];
}

const NAME_BY_DESCRIPTION: ReadonlyMap<string, string> = new Map(
  FAMILIES.map((family) => [DESCRIPCION_PRODUCTO[family], FAMILY_NAMES[family]]),
);
const SAVINGS = DESCRIPCION_PRODUCTO.AH;
const SHARES = DESCRIPCION_PRODUCTO.CP;

/** Specification §9: vouchers tell a checking-account debit from a card-provider payment. */
export const PAYMENT_METHOD_LABELS: Readonly<Record<string, string>> = {
  [MEDIO_PAGO_CUENTA_VISTA]: 'Débito Cuenta Vista',
  [MEDIO_PAGO_WEBPAY]: 'Webpay',
};

function lineLabel(pago: Pago, numeroCuota: number, cantidadCuotas: number): string {
  if (pago.descripcionProducto === SAVINGS) return 'Monto depositado';
  if (pago.descripcionProducto === SHARES || cantidadCuotas > 1) {
    return `${cantidadCuotas} ${cantidadCuotas === 1 ? 'cuota' : 'cuotas'}`;
  }
  return numeroCuota > 0 ? `Cuota Nº ${numeroCuota}` : 'Monto pagado';
}

/** The voucher as the screen shows it, from call 7's payments (one per product of the transaction). */
export function voucherView(pagos: readonly Pago[]): VoucherView | null {
  const [first] = pagos;
  if (!first) return null;
  const products = pagos.map((pago): VoucherProduct => {
    const detalles = asArray(pago.detallePago);
    const lines = detalles.map((d) => ({ label: lineLabel(pago, d.numeroCuota, d.cantidadCuotas), amount: d.montoPagado }));
    return {
      name: NAME_BY_DESCRIPTION.get(pago.descripcionProducto) ?? pago.descripcionProducto,
      number: maskProductNumber(pago.numeroProducto),
      authorisation: detalles[0]?.numeroAutorizacion ?? '',
      lines,
      subtotal: lines.reduce((sum, line) => sum + line.amount, 0),
    };
  });
  return {
    idTransaccion: first.idTransaccion,
    total: products.reduce((sum, product) => sum + product.subtotal, 0),
    date: isWireDate(first.fechaPago) ? wireToScreen(first.fechaPago) : first.fechaPago,
    time: first.horaPago.slice(0, 5),
    paymentMethod: PAYMENT_METHOD_LABELS[first.medioPago] ?? first.medioPago,
    account: first.cuentaPago,
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
