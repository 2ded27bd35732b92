import type { ProductoSeleccionado } from '@pago/domain/schemas/call-seleccionar';
import { kindOf } from '@pago/domain/families';
import type { Family } from '@pago/domain/families';
import { applyGraceFilter, byAge, detallesOf, type DetalleCuota } from '@pago/domain/products';
import { CARD_ABOVE_BILLED_MESSAGE, cardAmountError, isOldestFirstPrefix, SAVINGS_MAX_EXCLUSIVE, SAVINGS_MIN } from '@pago/domain/selection';
import type { InstalmentRow, ProductWithInstalments } from '../repositories/product-repository';
import { productRef, promotionActive, toWireProduct } from './product-view';
import { refuse, type Refusal } from './refusal';

/** One line of a transaction, frozen at selection time: what will be paid, and against which row. */
export interface FrozenItem {
  productId: string;
  instalmentId: string | null;
  numeroCuota: number;
  monto: number;
  fechaVencimiento: string | null;
}

export type SelectionOutcome = { ok: true; total: number; items: FrozenItem[] } | Refusal;

export interface SelectionContext {
  family: Family;
  /** Business day, yyyymmdd. */
  today: string;
  graceDays: number;
  /** The session the product list named the products in (product-view.ts `productRef`). */
  sessionId: string;
  /** Every product of the family that belongs to the session's member, with its instalment rows. */
  owned: ProductWithInstalments[];
}

/**
 * The server's own reading of a selection (call 3): every rule the browser applies is applied again here against
 * the database's rows, and the amounts to pay are taken from those rows, never from the request alone.
 */
export function validateSelection(request: ProductoSeleccionado[], ctx: SelectionContext): SelectionOutcome {
  const seen = new Set<string>();
  const items: FrozenItem[] = [];

  // The member may only pay what the product list shows: for credits, the grace-days view.
  const shown = new Map<string, DetalleCuota[]>();
  const wire = ctx.owned.flatMap((row) => {
    const p = toWireProduct(row, ctx.today, ctx.sessionId);
    return p ? [p] : [];
  });
  const view = kindOf(ctx.family) === 'credit' ? applyGraceFilter(wire, ctx.graceDays).products : wire;
  for (const p of view) shown.set(p.numeroProducto, detallesOf(p).sort(byAge));

  // The list named each product by its reference in this session: that is what a selection quotes.
  const ownedByRef = new Map(ctx.owned.map((o) => [productRef(ctx.sessionId, o.product), o]));
  for (const selected of request) {
    // The request schema already refuses these with 400: the rules must not depend on it.
    if (selected.tipoFamiliaProducto !== ctx.family) return refuse('400');
    if (seen.has(selected.numeroProducto)) return refuse('400');
    seen.add(selected.numeroProducto);
    const owned = ownedByRef.get(selected.numeroProducto);
    if (!owned) return refuse('47678');
    const visible = shown.get(selected.numeroProducto);
    if (!visible) return refuse('461');

    const outcome =
      kindOf(ctx.family) === 'savings'
        ? savingsItems(selected, owned)
        : kindOf(ctx.family) === 'card'
          ? cardItems(selected, owned, visible)
          : instalmentItems(selected, owned, visible, ctx);
    if (!outcome.ok) return outcome;
    items.push(...outcome.items);
  }
  if (items.length === 0) return refuse('477');
  const total = items.reduce((sum, item) => sum + item.monto, 0);
  if (!Number.isSafeInteger(total) || total <= 0) return refuse('463');
  return { ok: true, total, items };
}

function rowFor(owned: ProductWithInstalments, numeroCuota: number): InstalmentRow | undefined {
  return owned.instalments.find((i) => i.numeroCuota === numeroCuota);
}

/** Credits (PC, HI, PM) and participation shares (CP): oldest first, full amounts but for an allowed partial last one. */
function instalmentItems(
  selected: ProductoSeleccionado,
  owned: ProductWithInstalments,
  visible: DetalleCuota[],
  ctx: SelectionContext,
): SelectionOutcome {
  const numbers = selected.detalleProducto.map((d) => Number(d.numeroCuota));
  if (new Set(numbers).size !== numbers.length) return refuse('461');
  if (kindOf(ctx.family) === 'shares' && numbers.length > visible.length) return refuse('474');
  if (!isOldestFirstPrefix(visible.map((d) => d.numeroCuota), numbers)) return refuse('461');

  const promotion = promotionActive(owned.product.fechaVigenciaAbono, ctx.today);
  const items: FrozenItem[] = [];
  for (const [index, line] of selected.detalleProducto.entries()) {
    const detalle = visible[index]!;
    const row = rowFor(owned, detalle.numeroCuota)!;
    if (line.fechaVencimiento !== detalle.fechaVencimiento) return refuse('463');
    const amount = line.valorAPagar;
    if (amount > detalle.montoPendiente) return refuse('463');
    if (amount < detalle.montoPendiente) {
      // A partial amount leaves the instalment owing, so only the newest selected one may be partial.
      const isLast = index === selected.detalleProducto.length - 1;
      if (kindOf(ctx.family) === 'shares' || !isLast || !owned.product.permiteAbono || !promotion) return refuse('464');
      const isMinimum = amount === detalle.pagoMinimo;
      const isFree = owned.product.permiteMultipleAbono && amount >= owned.product.montoMinimoAbonoMultiple;
      if (!isMinimum && !isFree) return refuse('464');
    }
    items.push({ productId: owned.product.id, instalmentId: row.id, numeroCuota: row.numeroCuota, monto: amount, fechaVencimiento: row.fechaVencimiento });
  }
  return { ok: true, total: 0, items };
}

/** Credit card: one billed statement; minimum, total or an amount between them. */
function cardItems(selected: ProductoSeleccionado, owned: ProductWithInstalments, visible: DetalleCuota[]): SelectionOutcome {
  const statement = visible[0];
  const line = selected.detalleProducto[0];
  if (!line || selected.detalleProducto.length !== 1) return refuse('400');
  if (!statement || statement.montoPendiente <= 0) return refuse('477');
  if (Number(line.numeroCuota) !== statement.numeroCuota || line.fechaVencimiento !== statement.fechaVencimiento) return refuse('463');
  // The browser's rule (packages/domain): above the billed total, or below the minimum and never $0.
  const error = cardAmountError(line.valorAPagar, statement.pagoMinimo, statement.montoPendiente);
  if (error !== null) return refuse(error === CARD_ABOVE_BILLED_MESSAGE ? '463' : '505');
  const row = rowFor(owned, statement.numeroCuota)!;
  return {
    ok: true,
    total: 0,
    items: [{ productId: owned.product.id, instalmentId: row.id, numeroCuota: row.numeroCuota, monto: line.valorAPagar, fechaVencimiento: row.fechaVencimiento }],
  };
}

/** Savings deposit: cuota "0", date "0", 1.000 ≤ amount < 5.000.000. */
function savingsItems(selected: ProductoSeleccionado, owned: ProductWithInstalments): SelectionOutcome {
  const line = selected.detalleProducto[0];
  if (!line || selected.detalleProducto.length !== 1 || line.numeroCuota !== '0' || line.fechaVencimiento !== '0') return refuse('400');
  if (line.valorAPagar < SAVINGS_MIN || line.valorAPagar >= SAVINGS_MAX_EXCLUSIVE) return refuse('505');
  return {
    ok: true,
    total: 0,
    items: [{ productId: owned.product.id, instalmentId: null, numeroCuota: 0, monto: line.valorAPagar, fechaVencimiento: null }],
  };
}

