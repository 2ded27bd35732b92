import { asArray } from './as-array';
import { daysBetweenWire } from './dates';
import type { Family } from './families';
import { graceDaysName, webPaySwitchName } from './parameters';
import type { DetalleCuota, EstadoCuota, Producto } from './schemas/answers';

// The rules on the products of call 2's list. The list's schemas are in schemas/products.ts; its types, inferred
// from them, are offered here too (types only: nothing of zod comes with them).
export type { DetalleCuota, EstadoCuota, Producto };

export const CONVENIO = 'CONVENIO';

export interface InstalmentState {
  codigoEstadoCuota: EstadoCuota;
  diasMora: number;
}

/** Overdue state of an instalment on a business day (both yyyymmdd): due before today is overdue. */
export function instalmentState(fechaVencimiento: string, today: string): InstalmentState {
  return overdueState(daysBetweenWire(fechaVencimiento, today));
}

/** The same state from the days between the due date and today (zero or less: not yet overdue). */
export function overdueState(days: number): InstalmentState {
  return days > 0 ? { codigoEstadoCuota: 'V', diasMora: days } : { codigoEstadoCuota: 'A', diasMora: 0 };
}

/** Overdue beyond the family's grace days (diasMora{family}). */
export function isPastGrace(detalle: Pick<DetalleCuota, 'codigoEstadoCuota' | 'diasMora'>, graceDays: number): boolean {
  return detalle.codigoEstadoCuota === 'V' && detalle.diasMora > graceDays;
}

export const detallesOf = (producto: Pick<Producto, 'listaDetalleProductos'>): DetalleCuota[] =>
  asArray(producto.listaDetalleProductos);

/** Oldest first: by due date, then by number. */
export function byAge(a: DetalleCuota, b: DetalleCuota): number {
  return a.fechaVencimiento === b.fechaVencimiento
    ? a.numeroCuota - b.numeroCuota
    : a.fechaVencimiento < b.fechaVencimiento
      ? -1
      : 1;
}

export interface GraceView<P> {
  /** The products and instalments the member may see and pay now. */
  products: P[];
  /** Some instalment is past grace: only those are shown. */
  restricted: boolean;
  /** Restricted and something was hidden: 'Tienes cuotas pendientes: …'. */
  hiddenInstalments: boolean;
}

/**
 * Spec §4 'Step 2 credits': when any instalment of the family is overdue beyond the grace days, only the products
 * with such instalments, and only those instalments, are shown (and payable: the server applies the same view).
 */
export function applyGraceFilter<P extends Producto>(products: readonly P[], graceDays: number): GraceView<P> {
  const restricted = products.some((p) => detallesOf(p).some((d) => isPastGrace(d, graceDays)));
  if (!restricted) return { products: [...products], restricted: false, hiddenInstalments: false };
  let hidden = false;
  const shown: P[] = [];
  for (const p of products) {
    const all = detallesOf(p);
    const overdue = all.filter((d) => isPastGrace(d, graceDays));
    if (overdue.length !== all.length) hidden = true;
    if (overdue.length > 0) shown.push({ ...p, listaDetalleProductos: overdue });
  }
  return { products: shown, restricted: true, hiddenInstalments: hidden };
}

/**
 * Spec §2/§4 step 3: the card provider is offered for a payment of `family` when its pagoWebPay switch is on, or when
 * every instalment paid is overdue past the family's grace days (none current). The one definition of the rule: step
 * 3 asks it of the instalments chosen on step 2, calls 9 and 10 of the ones the transaction holds.
 */
export function cardMethodOffered(family: Family, parameters: Readonly<Partial<Record<string, string>>>, paid: readonly InstalmentState[]): boolean {
  if (parameters[webPaySwitchName(family)] === '1') return true;
  const graceDays = Number(parameters[graceDaysName(family)] ?? 0);
  return paid.length > 0 && paid.every((d) => isPastGrace(d, graceDays));
}

/** Masked for the screen: only the last four characters of a product or account number. */
export function maskProductNumber(numero: string): string {
  const visible = numero.slice(-4);
  return `${'*'.repeat(Math.max(0, Math.min(4, numero.length - 4)))}${visible}`.padStart(8, '*');
}
