import type { Family } from '@pago/domain/families';
import { formatThousands, parseClpDigits } from '@pago/domain/money';
import type { Producto } from '@pago/domain/products';
import { encodeSavingsDeposit, savingsAmountError } from '@pago/domain/selection';
import type { Selection } from '../../../lib/app-store';
import { previousEntries } from './common';

// Step 2 for savings (AH), specification §2, §4 'Savings' and §5 'Savings deposit per account'.

export interface SavingsChoice {
  checked: boolean;
  /** The amount as shown in its field (thousand dots), '' when empty. */
  text: string;
}

export type SavingsChoices = Readonly<Record<string, SavingsChoice>>;

const EMPTY: SavingsChoice = { checked: false, text: '' };

/** Unchecking an account clears its amount and, with it, its message. */
export const checkAccount = (checked: boolean): SavingsChoice => ({ checked, text: '' });

/** Non-digits are stripped; the amount is shown with thousand dots. */
export function setDepositText(choice: SavingsChoice, text: string): SavingsChoice {
  const amount = parseClpDigits(text);
  return { ...choice, text: amount === null ? '' : formatThousands(amount) };
}

export interface SavingsLine {
  numeroProducto: string;
  checked: boolean;
  amount: number;
  /** Shown once the member has typed something. */
  error: string | null;
  valid: boolean;
}

export function savingsLine(numeroProducto: string, choice: SavingsChoice = EMPTY): SavingsLine {
  const amount = parseClpDigits(choice.text) ?? 0;
  const error = choice.checked && choice.text !== '' ? savingsAmountError(amount) : null;
  return { numeroProducto, checked: choice.checked, amount, error, valid: choice.checked && savingsAmountError(amount) === null };
}

export const savingsLines = (products: readonly Producto[], choices: SavingsChoices) =>
  products.map((p) => savingsLine(p.numeroProducto, choices[p.numeroProducto]));

/** Specification §4: 'Continuar' needs an account checked and a valid amount in every checked account. */
export const canContinueSavings = (lines: readonly SavingsLine[]) =>
  lines.some((line) => line.checked) && lines.every((line) => !line.checked || line.valid);

export function savingsSelection(family: Family, lines: readonly SavingsLine[]): Selection {
  const deposits = lines.filter((line) => line.checked);
  return {
    family,
    productsToPay: deposits.map((line) => ({
      productNumber: line.numeroProducto,
      installment: [encodeSavingsDeposit('0', line.amount)],
    })),
    amount: deposits.reduce((sum, line) => sum + line.amount, 0),
  };
}

/** The deposits the member chose before (back from step 3), or every account unchecked. */
export function initialSavingsChoices(products: readonly Producto[], selection: Selection, family: Family): SavingsChoices {
  const previous = previousEntries(selection, family);
  return Object.fromEntries(
    products.map((p) => {
      const monto = previous?.get(p.numeroProducto)?.[0]?.monto;
      return [p.numeroProducto, monto === undefined ? EMPTY : { checked: true, text: formatThousands(monto) }];
    }),
  );
}
