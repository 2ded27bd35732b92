import { formatClp } from '@pago/domain/money';
import { useId, useState, type ReactNode } from 'react';
import { AMOUNT_TO_CORRECT } from './texts';

interface SummaryPanelProps {
  /** 'Total a pagar' or 'Total a depositar'. */
  totalLabel: string;
  total: number;
  /** 'Seleccionado para pagar N cuotas' and the like. */
  count?: string;
  /** What must be corrected before paying (an amount out of its limits), said under the count. */
  warning?: string;
  /** What makes up the total; folded away on a phone ('Ver detalle'), always open from lg up. */
  details?: ReactNode;
  /** 'Volver' and the pay button. */
  actions: ReactNode;
}

/** The side summary of step 2: beside the products (and sticky) on a wide screen, under them on a phone. */
export function SummaryPanel({ totalLabel, total, count, warning, details, actions }: SummaryPanelProps) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const detailsId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-4 rounded-xl border border-line bg-canvas/70 p-4 sm:p-5 lg:sticky lg:top-6 lg:self-start"
    >
      <h2 id={titleId} className="text-lg font-bold text-ink">
        Resumen
      </h2>
      <div className="flex flex-col gap-1">
        <p className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span className="text-base font-semibold text-ink">{totalLabel}</span>
          <span className="text-2xl font-bold text-brand-800 tabular-nums">
            {formatClp(total)}
          </span>
        </p>
        {count ? <p className="text-sm text-muted">{count}</p> : null}
        {warning ? <p className="text-sm font-semibold text-danger">{warning}</p> : null}
      </div>
      {details ? (
        <div>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen((o) => !o)}
            className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand-700 underline-offset-4 hover:underline lg:hidden"
          >
            {open ? 'Ocultar detalle' : 'Ver detalle'}
            <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-4 fill-current transition-transform ${open ? 'rotate-180' : ''}`}>
              <path d="M5.3 7.3 10 12l4.7-4.7 1.4 1.4L10 14.8 3.9 8.7l1.4-1.4Z" />
            </svg>
          </button>
          <div id={detailsId} className={open ? 'block' : 'hidden lg:block'}>
            {details}
          </div>
        </div>
      ) : null}
      <div className="flex flex-col gap-3">{actions}</div>
    </section>
  );
}

interface DetailLine {
  key: string;
  label: ReactNode;
  /** null: an amount the member must correct first. */
  amount: number | null;
}

/** The lines of the summary's detail: what is paid and how much. */
export function SummaryDetails({ lines, empty }: { lines: readonly DetailLine[]; empty: string }) {
  if (lines.length === 0) return <p className="text-sm text-muted">{empty}</p>;
  return (
    <ul className="flex flex-col divide-y divide-line border-t border-line text-sm">
      {lines.map((line) => (
        <li key={line.key} className="flex items-baseline justify-between gap-3 py-2">
          <span className="min-w-0 text-ink">{line.label}</span>
          {line.amount === null ? (
            <span className="shrink-0 font-semibold text-danger">{AMOUNT_TO_CORRECT}</span>
          ) : (
            <span className="shrink-0 font-semibold text-ink tabular-nums">{formatClp(line.amount)}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
