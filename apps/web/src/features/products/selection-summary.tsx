import { isWireDate, wireToScreen } from '@pago/domain/dates';
import { FAMILY_NAMES, kindOf, type Family } from '@pago/domain/families';
import { formatClp } from '@pago/domain/money';
import { detallesOf, maskProductNumber } from '@pago/domain/products';
import type { Producto } from '@pago/domain/products';
import { PARTIAL_PAYMENT } from '@pago/domain/voucher';
import type { InstallmentEntry } from '@pago/domain/selection';
import { useId } from 'react';
import type { SelectedProduct } from './selection-request';

export const TOTAL_LABEL = 'Total a pagar';

function lineLabel(family: Family, entry: InstallmentEntry, product: Producto): string {
  if (kindOf(family) === 'savings') return 'Depósito';
  if (kindOf(family) === 'card') return 'Monto a pagar';
  // Less than the instalment owes: the rest stays owed, as step 2 and the voucher say.
  const owed = detallesOf(product).find((d) => String(d.numeroCuota) === entry.numero)?.montoPendiente;
  return owed !== undefined && entry.monto < owed ? `Cuota Nº ${entry.numero} · ${PARTIAL_PAYMENT}` : `Cuota Nº ${entry.numero}`;
}

interface SelectionSummaryProps {
  family: Family;
  selected: readonly SelectedProduct[];
  /** The total step 2 stored. The server computes the one the member pays. */
  amount: number;
}

/** Step 3's summary: the total, then each product of the category with what is paid of it. */
export function SelectionSummary({ family, selected, amount }: SelectionSummaryProps) {
  const headingId = useId();
  return (
    <aside aria-labelledby={headingId} className="rounded-xl border border-line bg-canvas/50 p-5">
      <h2 id={headingId} className="text-lg font-semibold text-ink">
        Resumen de tu pago
      </h2>
      <p className="mt-3 flex flex-wrap items-baseline justify-between gap-x-3 border-b border-line pb-3">
        <span className="font-semibold whitespace-nowrap text-ink">{TOTAL_LABEL}</span>
        <span className="text-2xl font-bold text-brand-800">{formatClp(amount)}</span>
      </p>
      <h3 className="mt-4 flex items-center gap-2 text-base font-semibold text-ink">{FAMILY_NAMES[family]}</h3>
      <ul className="mt-2 space-y-4">
        {selected.map(({ product, entries }) => (
          <li key={product.numeroProducto}>
            <p className="text-sm font-semibold text-muted">{`Nº ${maskProductNumber(product.numeroProducto)}`}</p>
            <ul className="mt-1 space-y-1.5">
              {entries.map((entry, index) => (
                <li key={`${entry.numero}-${index}`} className="flex items-start justify-between gap-3 text-sm">
                  <span className="text-ink">
                    {lineLabel(family, entry, product)}
                    {kindOf(family) !== 'savings' && isWireDate(entry.fecha) ? (
                      <span className="block text-xs text-muted">{`Vence ${wireToScreen(entry.fecha)}`}</span>
                    ) : null}
                  </span>
                  <span className="shrink-0 font-semibold text-ink">{formatClp(entry.monto)}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </aside>
  );
}
