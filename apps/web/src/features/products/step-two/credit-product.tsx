import { wireToScreen } from '@pago/domain/dates';
import { formatClp } from '@pago/domain/money';
import { maskProductNumber } from '@pago/domain/products';
import type { DetalleCuota } from '@pago/domain/products';
import { minimumAmountMessage, partialInputMaxLength } from '@pago/domain/selection';
import * as Switch from '@radix-ui/react-switch';
import { useId, useState, type ReactNode } from 'react';
import { AmountField } from './amount-field';
import { partialTarget, type CreditChoice, type CreditLine, type CreditProduct } from './credits';

/** Rows shown while a long credit is folded ('Ver más'). */
const FOLDED_ROWS = 2;

interface CreditProductCardProps {
  product: CreditProduct;
  choice: CreditChoice;
  /** The selected line of the instalment paid in part, when there is one. */
  partialLine: CreditLine | undefined;
  onToggle: (cuota: number) => void;
  onPartial: (on: boolean) => void;
  onPartialText: (text: string) => void;
}

/** One credit: 'Crédito Nº', its badge, and its instalments to tick from the oldest. */
export function CreditProductCard({ product, choice, partialLine, onToggle, onPartial, onPartialText }: CreditProductCardProps) {
  const [expanded, setExpanded] = useState(false);
  const titleId = useId();
  const listId = useId();
  const masked = maskProductNumber(product.numeroProducto);
  const foldable = product.instalments.length > FOLDED_ROWS;
  const rows = foldable && !expanded ? product.instalments.slice(0, FOLDED_ROWS) : product.instalments;
  const target = partialTarget(product, choice);

  return (
    <section aria-labelledby={titleId} className="rounded-xl border border-line bg-white p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
        <h2 id={titleId} className="text-lg font-bold text-ink">
          Crédito Nº {masked}
        </h2>
        {product.convenio ? (
          <span className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800">
            Descuento por planilla
          </span>
        ) : null}
      </div>
      <ul id={listId} className="mt-2 divide-y divide-line">
        {rows.map((detalle) => (
          <InstalmentRow
            key={detalle.numeroCuota}
            detalle={detalle}
            masked={masked}
            checked={choice.selected.includes(detalle.numeroCuota)}
            onToggle={() => onToggle(detalle.numeroCuota)}
          >
            {detalle === target ? (
              <PartialPayment
                product={product}
                detalle={detalle}
                on={choice.partial}
                text={choice.partialText}
                line={partialLine}
                onPartial={onPartial}
                onPartialText={onPartialText}
              />
            ) : null}
          </InstalmentRow>
        ))}
      </ul>
      {foldable ? (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((e) => !e)}
          className="mt-1 inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
        >
          {expanded ? 'Ver menos' : 'Ver más'}
          <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-4 fill-current ${expanded ? 'rotate-180' : ''}`}>
            <path d="M5.3 7.3 10 12l4.7-4.7 1.4 1.4L10 14.8 3.9 8.7l1.4-1.4Z" />
          </svg>
        </button>
      ) : null}
    </section>
  );
}

interface InstalmentRowProps {
  detalle: DetalleCuota;
  masked: string;
  checked: boolean;
  onToggle: () => void;
  children?: ReactNode;
}

function InstalmentRow({ detalle, masked, checked, onToggle, children }: InstalmentRowProps) {
  const id = useId();
  const overdue = detalle.codigoEstadoCuota === 'V';
  return (
    <li className="py-3">
      <div className="flex items-start gap-3">
        {/* Controlled: a refused toggle (out of order) leaves the box as it was. */}
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={onToggle}
          className="mt-1 size-5 shrink-0 cursor-pointer accent-brand-700"
        />
        {/* The amount stays on the right of the first line, as in every row; a badge that does not fit wraps under the number. */}
        <label htmlFor={id} className="flex min-w-0 flex-1 cursor-pointer items-baseline justify-between gap-x-3">
          <span className="flex min-w-0 flex-col gap-y-0.5">
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-base font-semibold text-ink">
              <span>
                Cuota {detalle.numeroCuota}
                <span className="sr-only"> del crédito Nº {masked}</span>
              </span>
              {overdue ? (
                <span className="rounded-full bg-danger-50 px-2 py-0.5 text-xs font-semibold text-danger">Vencida</span>
              ) : null}
            </span>
            <span className="text-sm text-muted">Vence {wireToScreen(detalle.fechaVencimiento)}</span>
          </span>
          <span className="shrink-0 text-lg font-bold whitespace-nowrap text-ink tabular-nums">{formatClp(detalle.montoPendiente)}</span>
        </label>
      </div>
      {children}
    </li>
  );
}

interface PartialPaymentProps {
  product: CreditProduct;
  detalle: DetalleCuota;
  on: boolean;
  text: string;
  line: CreditLine | undefined;
  onPartial: (on: boolean) => void;
  onPartialText: (text: string) => void;
}

/** The partial-payment switch of the newest selected instalment, and its amount. */
function PartialPayment({ product, detalle, on, text, line, onPartial, onPartialText }: PartialPaymentProps) {
  const switchId = useId();
  return (
    <div className="mt-3 ml-8 flex flex-col gap-3 rounded-lg bg-canvas px-3 py-2">
      <div className="flex min-h-11 items-center justify-between gap-3">
        <label htmlFor={switchId} className="cursor-pointer text-sm font-semibold text-ink">
          Monto a abonar
          <span className="sr-only"> a la cuota {detalle.numeroCuota}</span>
        </label>
        <Switch.Root
          id={switchId}
          checked={on}
          onCheckedChange={onPartial}
          className="relative inline-flex h-7 w-12 shrink-0 cursor-pointer items-center rounded-full bg-field transition-colors data-[state=checked]:bg-brand-700"
        >
          <Switch.Thumb className="block size-5 translate-x-1 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-6" />
        </Switch.Root>
      </div>
      {on ? (
        product.permiteMultipleAbono ? (
          <AmountField
            className="pb-2"
            label={
              <>
                Ingresa el monto a abonar<span className="sr-only"> a la cuota {detalle.numeroCuota}</span>
              </>
            }
            value={text}
            onValueChange={onPartialText}
            maxLength={partialInputMaxLength(detalle.montoPendiente)}
            hint={minimumAmountMessage(product.montoMinimoAbonoMultiple)}
            error={line?.error}
          />
        ) : (
          <p className="pb-2 text-sm text-ink">
            Pagarás el pago mínimo de <span className="font-bold tabular-nums">{formatClp(detalle.pagoMinimo)}</span>
          </p>
        )
      ) : null}
    </div>
  );
}
