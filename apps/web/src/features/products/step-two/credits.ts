import type { Family } from '@pago/domain/families';
import { formatThousands, parseClpDigits } from '@pago/domain/money';
import { applyGraceFilter, CONVENIO } from '@pago/domain/products';
import type { DetalleCuota, Producto } from '@pago/domain/products';
import { isOldestFirstPrefix, partialAmountError, toggleInstalment } from '@pago/domain/selection';
import type { Selection } from '../../../lib/app-store';
import { installmentOf, oldestFirst, previousEntries } from './common';

// Step 2 for credits (PC, HI, PM), specification §2 and §4 'Step 2 credits'. Every rule comes from
// @pago/domain; this module only keeps the member's choices and reads them the way the server will
// (apps/api/src/services/selection-rules.ts).

export interface CreditProduct {
  numeroProducto: string;
  /** The payable instalments, oldest first. */
  instalments: DetalleCuota[];
  /** Paid by payroll deduction: the 'Descuento por planilla' badge. */
  convenio: boolean;
  permiteAbono: boolean;
  permiteMultipleAbono: boolean;
  montoMinimoAbonoMultiple: number;
}

export interface CreditView {
  products: CreditProduct[];
  /** Some instalments are hidden behind overdue ones: 'Tienes cuotas pendientes: …'. */
  hiddenInstalments: boolean;
}

/** The credits of one family as the member may see and pay them now (the grace-days view). */
export function creditView(products: readonly Producto[], graceDays: number): CreditView {
  const view = applyGraceFilter(products, graceDays);
  return {
    hiddenInstalments: view.hiddenInstalments,
    products: view.products.map((p) => {
      const instalments = oldestFirst(p);
      return {
        numeroProducto: p.numeroProducto,
        instalments,
        convenio: instalments.some(isConvenio),
        permiteAbono: p.permiteAbono,
        permiteMultipleAbono: p.permiteMultipleAbono,
        montoMinimoAbonoMultiple: p.montoMinimoAbonoMultiple,
      };
    }),
  };
}

const isConvenio = (d: DetalleCuota) => d.medioPago === CONVENIO;

/** The member's choice on one credit. */
export interface CreditChoice {
  /** Selected instalment numbers: always the oldest ones, oldest first. */
  selected: number[];
  /** The partial-payment switch, which belongs to the newest selected instalment. */
  partial: boolean;
  /** The free partial amount as shown in its field (thousand dots). */
  partialText: string;
}

export type CreditChoices = Readonly<Record<string, CreditChoice>>;

const numbersOf = (product: CreditProduct) => product.instalments.map((d) => d.numeroCuota);

/** Specification §4: the oldest instalment of each credit is checked on arrival. */
export function defaultChoices(view: CreditView): CreditChoices {
  return Object.fromEntries(
    view.products.map((p) => [p.numeroProducto, { selected: numbersOf(p).slice(0, 1), partial: false, partialText: '' }]),
  );
}

/**
 * The choices the member made before (back from step 3), where they still fit the instalments shown; any
 * other credit starts with its default.
 */
export function initialChoices(view: CreditView, selection: Selection, family: Family): CreditChoices {
  const defaults = defaultChoices(view);
  const previous = previousEntries(selection, family);
  if (!previous) return defaults;
  return Object.fromEntries(
    view.products.map((p) => {
      const entries = previous.get(p.numeroProducto) ?? [];
      const selected = entries.map((e) => Number(e.numero));
      const fits =
        isOldestFirstPrefix(numbersOf(p), selected) &&
        entries.every((e, i) => e.fecha === p.instalments[i]?.fechaVencimiento);
      if (!fits) return [p.numeroProducto, defaults[p.numeroProducto]!];
      const last = entries.at(-1);
      const newest = p.instalments[entries.length - 1];
      const partial = p.permiteAbono && last !== undefined && newest !== undefined && last.monto < newest.montoPendiente;
      return [p.numeroProducto, { selected, partial, partialText: partial && last ? formatThousands(last.monto) : '' }];
    }),
  );
}

/**
 * Checks or unchecks an instalment. null when it would break the oldest-to-newest order: the screen then shows
 * the order modal and the check stays as it was. Any change moves the newest selected instalment, so the
 * partial switch goes off and every selected instalment is paid in full again.
 */
export function toggleChoice(product: CreditProduct, choice: CreditChoice, cuota: number): CreditChoice | null {
  const result = toggleInstalment(numbersOf(product), choice.selected, cuota);
  if (!result.ok) return null;
  return { selected: result.selected, partial: false, partialText: '' };
}

/**
 * The instalment that may be paid in part: the newest selected one, when the credit allows it. The server takes a
 * partial amount only on the last instalment of a product, since it leaves that instalment owing.
 */
export function partialTarget(product: CreditProduct, choice: CreditChoice): DetalleCuota | null {
  if (!product.permiteAbono || choice.selected.length === 0) return null;
  return product.instalments[choice.selected.length - 1] ?? null;
}

/** Turning the switch on proposes the minimum payment; turning it off pays the instalment in full. */
export function setPartial(product: CreditProduct, choice: CreditChoice, on: boolean): CreditChoice {
  const target = partialTarget(product, choice);
  if (!on || !target) return { ...choice, partial: false, partialText: '' };
  return { ...choice, partial: true, partialText: formatThousands(target.pagoMinimo) };
}

/** The free amount field: digits only, shown with thousand dots. */
export function setPartialText(choice: CreditChoice, text: string): CreditChoice {
  const amount = parseClpDigits(text);
  return { ...choice, partialText: amount === null ? '' : formatThousands(amount) };
}

/**
 * Specification §5 'Credit partial amount'. The minimum payment the switch proposes is always accepted (as on the
 * server), even when the credit's minimum for a free amount is higher.
 */
export function partialError(product: CreditProduct, detalle: DetalleCuota, amount: number): string | null {
  if (!product.permiteMultipleAbono) return null;
  if (amount === detalle.pagoMinimo && amount <= detalle.montoPendiente) return null;
  return partialAmountError(amount, detalle.montoPendiente, product.montoMinimoAbonoMultiple);
}

/** One instalment the member is about to pay. */
export interface CreditLine {
  product: CreditProduct;
  detalle: DetalleCuota;
  /** Pending amount, minimum payment or the partial amount typed. */
  monto: number;
  partial: boolean;
  error: string | null;
}

export function creditLines(view: CreditView, choices: CreditChoices): CreditLine[] {
  return view.products.flatMap((product) => {
    const choice = choices[product.numeroProducto];
    if (!choice) return [];
    const target = choice.partial ? partialTarget(product, choice) : null;
    return product.instalments.slice(0, choice.selected.length).map((detalle): CreditLine => {
      if (detalle !== target) return { product, detalle, monto: detalle.montoPendiente, partial: false, error: null };
      const monto = product.permiteMultipleAbono ? (parseClpDigits(choice.partialText) ?? 0) : detalle.pagoMinimo;
      return { product, detalle, monto, partial: true, error: partialError(product, detalle, monto) };
    });
  });
}

export const totalOf = (lines: readonly { monto: number }[]) => lines.reduce((sum, line) => sum + line.monto, 0);

/** Specification §4: the pay button is disabled when nothing is selected, an amount is 0 or a field has an error. */
export const canPayCredits = (lines: readonly CreditLine[]) =>
  lines.length > 0 && lines.every((line) => line.monto > 0 && line.error === null);

/** Specification §4: paying an instalment registered for payroll deduction asks the member to confirm. */
export const needsConvenioNotice = (lines: readonly CreditLine[]) => lines.some((line) => isConvenio(line.detalle));

export function creditSelection(family: Family, lines: readonly CreditLine[]): Selection {
  const byProduct = new Map<string, string[]>();
  for (const line of lines) {
    const list = byProduct.get(line.product.numeroProducto) ?? [];
    list.push(installmentOf(line.detalle, line.monto));
    byProduct.set(line.product.numeroProducto, list);
  }
  return {
    family,
    productsToPay: [...byProduct].map(([productNumber, installment]) => ({ productNumber, installment })),
    amount: totalOf(lines),
  };
}
