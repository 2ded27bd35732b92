import { FAMILY_NAMES, kindOf, type Family } from '@pago/domain/families';
import { formatClp } from '@pago/domain/money';
import { maskProductNumber } from '@pago/domain/products';
import type { ReactNode } from 'react';
import type { Selection } from '../lib/app-store';

/** What is being paid, one line per product: 'Crédito MYPE Nº ****7788 · 2 cuotas'. */
export function paymentLines(selection: Selection, category: Family): string[] {
  const name = FAMILY_NAMES[category];
  return selection.productsToPay.map(({ productNumber, installment }) => {
    const base = `${name} Nº ${maskProductNumber(productNumber)}`;
    // A deposit and a card statement are one amount each; credits and shares count their instalments.
    if (kindOf(category) === 'savings' || kindOf(category) === 'card') return base;
    const count = installment.length;
    return `${base} · ${count} ${count === 1 ? 'cuota' : 'cuotas'}`;
  });
}

interface PaymentTotalProps {
  amount: number;
  selection: Selection;
  category: Family;
  /** Under the lines: what the payment method takes. */
  children?: ReactNode;
}

/** The amount and what it pays, at the top of the payment method's screen (checking account or card). */
export function PaymentTotal({ amount, selection, category, children }: PaymentTotalProps) {
  return (
    <div className="mt-5 rounded-xl bg-brand-50 px-4 py-4">
      <p className="text-sm text-muted">Total a pagar</p>
      <p className="text-3xl font-bold tracking-tight text-ink tabular-nums">{formatClp(amount)}</p>
      <ul className="mt-2 space-y-0.5 text-sm text-ink">
        {paymentLines(selection, category).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {children}
    </div>
  );
}
