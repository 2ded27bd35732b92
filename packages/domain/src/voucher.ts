import type { Pago } from './schemas/answers';
import { asArray } from './as-array';
import { MEDIO_PAGO_CUENTA_VISTA } from './call-consultar-pago';
import { isWireDate, wireToScreen } from './dates';
import { FAMILIES, FAMILY, FAMILY_NAMES, kindOf, type Family } from './families';
import { maskProductNumber } from './products';
import { formatRut } from './rut';

export { VOUCHER_TEXTS } from './voucher-texts';

// The voucher, once, for every channel that shows it: the screen, its print, the PDF, the e-mail and (the part it
// shows) the public verification page. Each channel lays these out; none names a field or formats a value itself.

/** What every channel calls each field of the voucher. */
export const VOUCHER_LABELS = {
  total: 'Total pagado',
  date: 'Fecha y hora',
  method: 'Medio de pago',
  account: 'Cuenta de pago',
  authorisedWith: 'Autorizado con',
  rut: 'RUT del socio',
  transaction: 'Nº de transacción',
  authorisation: 'Nº de autorización',
  instalments: 'Cantidad de cuotas',
  products: 'Productos pagados',
  details: 'Detalle de la transacción',
} as const;

/**
 * Spec §9: vouchers tell a checking-account debit from a card payment. The wire's medioPago stays as the spec has it
 * ('CUENTA VISTA', 'WEBPAY'); the member reads Spanish with its accents.
 */
export const PAYMENT_METHOD_NAMES: Readonly<Record<string, string>> = {
  [MEDIO_PAGO_CUENTA_VISTA]: 'Débito',
  WEBPAY: 'Webpay',
};

/** The coordinate card, as 'Autorizado con' names it (the mobile authoriser is named 'Pass{product}'). */
export const COORDINATE_CARD_NAME = 'Tarjeta de coordenadas';

/** The mobile authoriser app, as the member knows it: 'Pass{product}' ('coop' → 'PassCoop'). */
export const passName = (productSlug: string) => `Pass${productSlug.charAt(0).toUpperCase()}${productSlug.slice(1)}`;

/** 'Autorizado con' for the factor that authorised the payment (1 the coordinate card, 2 the app); null for none. */
export function authorisedWithName(factor: 1 | 2 | null, productSlug: string): string | null {
  if (factor === 1) return COORDINATE_CARD_NAME;
  return factor === 2 ? passName(productSlug) : null;
}

/** Said beside an instalment paid in part: the rest of it is still owed. */
export const PARTIAL_PAYMENT = 'Abono parcial';

/** The family a voucher's descripcionProducto names (spec §3): how vouchers stored before the family's code are read. */
const FAMILY_BY_DESCRIPTION: ReadonlyMap<string, Family> = new Map(FAMILIES.map((family) => [FAMILY[family].voucherDescription, family]));

/**
 * The family of one of a voucher's payments: its code, written since vouchers carry it, so that editing a family's
 * voucher description never changes how a stored voucher is drawn; an older voucher by its description.
 */
export const familyOfPago = (pago: Pick<Pago, 'descripcionProducto' | 'tipoFamiliaProducto'>): Family | undefined =>
  pago.tipoFamiliaProducto ?? FAMILY_BY_DESCRIPTION.get(pago.descripcionProducto);

/** A deposit and a card payment are an amount, not instalments. */
const paidByAmount = (family: Family | undefined) => family !== undefined && ['savings', 'card'].includes(kindOf(family));

/** The family's name for a voucher's descripcionProducto ('CREDITO MYPE' → 'Crédito MYPE'); others as sent. */
export function productName(descripcionProducto: string): string {
  const family = FAMILY_BY_DESCRIPTION.get(descripcionProducto);
  return family ? FAMILY_NAMES[family] : descripcionProducto;
}

/** Only the last four digits of an account or card, as every number on the voucher: '****5601'. */
export function maskedNumber(numero: string): string {
  const digits = numero.replace(/\D/g, '');
  return digits.length >= 4 ? maskProductNumber(digits) : numero;
}

/** A RUT as a voucher shows it anywhere, even printed or e-mailed: the last three digits and the check digit. */
export function maskedRut(rut: string): string {
  const formatted = formatRut(rut);
  return formatted.length > 5 ? `${formatted.slice(0, -5).replace(/\d/g, '*')}${formatted.slice(-5)}` : formatted;
}

/**
 * What one paid line is called: 'Cuota Nº 38', 'Cuota Nº 21 · Abono parcial' (cantidadCuotas 0: the instalment is
 * still partly owed), '3 cuotas' (participation shares), 'Monto depositado', 'Monto pagado'.
 */
export function voucherLineLabel(family: Family | undefined, line: { numeroCuota: number; cantidadCuotas: number }): string {
  const kind = family && kindOf(family);
  if (kind === 'savings') return 'Monto depositado';
  // A card's statement is paid by amount: its one "instalment" is not one the member would count.
  if (kind === 'card') return 'Monto pagado';
  if (kind === 'shares' || line.cantidadCuotas > 1) {
    return `${line.cantidadCuotas} ${line.cantidadCuotas === 1 ? 'cuota' : 'cuotas'}`;
  }
  if (line.numeroCuota <= 0) return 'Monto pagado';
  return line.cantidadCuotas === 0 ? `Cuota Nº ${line.numeroCuota} · ${PARTIAL_PAYMENT}` : `Cuota Nº ${line.numeroCuota}`;
}

export interface VoucherLine {
  label: string;
  amount: number;
}

export interface VoucherProduct {
  /** 'Crédito MYPE' */
  name: string;
  /** Masked: '****7788'. */
  number: string;
  lines: VoucherLine[];
  /** Every authorisation number of the product's payment, once each. */
  authorisation: string;
  /** Whole instalments paid (credits and shares); null for a deposit or a card, and when none was paid whole. */
  instalments: number | null;
  subtotal: number;
}

/** The voucher as every channel shows it. */
export interface Voucher {
  idTransaccion: string;
  total: number;
  /** 'dd/mm/yyyy HH:MM:SS', business time. */
  dateTime: string;
  /** 'Débito' or 'Webpay'. */
  method: string;
  /** 'Cuenta Vista ****5601', 'Tarjeta ****6623'. */
  account: string;
  /** 'Tarjeta de coordenadas', 'PassCoop'; null when no second factor authorised it (a card payment). */
  authorisedWith: string | null;
  /** '**.***.111-1' */
  rut: string;
  products: VoucherProduct[];
}

/** The account a payment came from, named by its kind: a card's number alone is not a member's words. */
function accountOf(pago: Pick<Pago, 'medioPago' | 'cuentaPago'>): string {
  const masked = maskedNumber(pago.cuentaPago);
  if (pago.medioPago === MEDIO_PAGO_CUENTA_VISTA) return `Cuenta Vista ${masked}`;
  // A card payment without the card's digits (Webpay did not say them) names the provider alone.
  return /\d{4}/.test(pago.cuentaPago.replace(/\D/g, '')) ? `Tarjeta ${masked}` : pago.cuentaPago;
}

/** The voucher of call 7's payments (one per product of the transaction); null when there is none. */
export function voucherOf(pagos: readonly Pago[], authorisedWith: string | null = null): Voucher | null {
  const [first] = pagos;
  if (!first) return null;
  const products = pagos.map((pago): VoucherProduct => {
    const detalles = asArray(pago.detallePago);
    const family = familyOfPago(pago);
    const lines = detalles.map((d) => ({ label: voucherLineLabel(family, d), amount: d.montoPagado }));
    const whole = detalles.reduce((sum, d) => sum + d.cantidadCuotas, 0);
    return {
      name: family ? FAMILY_NAMES[family] : pago.descripcionProducto,
      number: maskProductNumber(pago.numeroProducto),
      lines,
      authorisation: [...new Set(detalles.map((d) => d.numeroAutorizacion).filter(Boolean))].join(', '),
      instalments: paidByAmount(family) || whole === 0 ? null : whole,
      subtotal: lines.reduce((sum, line) => sum + line.amount, 0),
    };
  });
  return {
    idTransaccion: first.idTransaccion,
    total: products.reduce((sum, product) => sum + product.subtotal, 0),
    dateTime: `${isWireDate(first.fechaPago) ? wireToScreen(first.fechaPago) : first.fechaPago} ${first.horaPago}`,
    method: PAYMENT_METHOD_NAMES[first.medioPago] ?? first.medioPago,
    account: accountOf(first),
    authorisedWith,
    rut: maskedRut(first.rutDeudor),
    products,
  };
}

/** The transaction's rows, in the order every channel lists them ('Autorizado con' only when a factor authorised it). */
export function voucherDetails(voucher: Voucher): [string, string][] {
  return [
    [VOUCHER_LABELS.date, voucher.dateTime],
    [VOUCHER_LABELS.method, voucher.method],
    [VOUCHER_LABELS.account, voucher.account],
    ...(voucher.authorisedWith ? [[VOUCHER_LABELS.authorisedWith, voucher.authorisedWith] as [string, string]] : []),
    [VOUCHER_LABELS.rut, voucher.rut],
    [VOUCHER_LABELS.transaction, voucher.idTransaccion],
  ];
}

/** A product's title line: 'Crédito MYPE Nº ****7788'. */
export const productTitle = (product: Pick<VoucherProduct, 'name' | 'number'>) => `${product.name} Nº ${product.number}`;

/** A product's rows after its paid lines, with the same labels everywhere. */
export function productFootRows(product: VoucherProduct): [string, string][] {
  return [
    [VOUCHER_LABELS.authorisation, product.authorisation],
    ...(product.instalments !== null ? [[VOUCHER_LABELS.instalments, String(product.instalments)] as [string, string]] : []),
  ];
}
