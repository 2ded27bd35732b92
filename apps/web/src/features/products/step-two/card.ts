import type { Family } from '@pago/domain/families';
import { formatThousands, parseClpDigits } from '@pago/domain/money';
import { detallesOf } from '@pago/domain/products';
import type { DetalleCuota, Producto } from '@pago/domain/products';
import { cardAmountError, cardOptionsOffered, type CardOptionCode } from '@pago/domain/selection';
import type { Selection } from '../../../lib/app-store';
import { installmentOf, previousEntries } from './common';

// Step 2 for credit cards (TC), specification §2, §4 'Cards (TC)' and §5 "Card 'abonar'".

export type CardOption = CardOptionCode;

export const CARD_OPTIONS: readonly { value: CardOption; label: string }[] = [
  { value: 'minimo', label: 'Pago mínimo' },
  { value: 'total', label: 'Total facturado' },
  { value: 'abonar', label: 'Abonar' },
];

/** The options a statement offers (the domain's rule: no 'Pago mínimo' once it is paid). */
export const cardOptionsOf = (product: CardProduct) =>
  CARD_OPTIONS.filter((option) => cardOptionsOffered(product.statement.pagoMinimo).includes(option.value));

export interface CardProduct {
  numeroProducto: string;
  /** The billed statement (a card's single listaDetalleProductos). */
  statement: DetalleCuota;
  /** Last billing date, yyyymmdd. */
  fechaFacturacion: string | null;
  /** Nothing billed: the options are disabled and the member is told so. */
  noDebt: boolean;
}

export function cardView(products: readonly Producto[]): CardProduct[] {
  return products.flatMap((p) => {
    const statement = detallesOf(p)[0];
    if (!statement) return [];
    return [
      {
        numeroProducto: p.numeroProducto,
        statement,
        fechaFacturacion: p.fechaFacturacion || null,
        noDebt: statement.montoPendiente <= 0,
      },
    ];
  });
}

export interface CardChoice {
  option: CardOption | null;
  /** The 'Abonar' amount as shown in its field (thousand dots). */
  text: string;
}

export type CardChoices = Readonly<Record<string, CardChoice>>;

const NO_CHOICE: CardChoice = { option: null, text: '' };

/** Choosing another option than 'Abonar' clears the typed amount. */
export const chooseOption = (choice: CardChoice, option: CardOption): CardChoice => ({
  option,
  text: option === 'abonar' ? choice.text : '',
});

/** Digits only, shown with thousand dots. */
export function setCardText(choice: CardChoice, text: string): CardChoice {
  const amount = parseClpDigits(text);
  return { ...choice, text: amount === null ? '' : formatThousands(amount) };
}

export interface CardLine {
  product: CardProduct;
  option: CardOption | null;
  amount: number;
  /** 'Abonar' only, once the member has typed something. */
  error: string | null;
  valid: boolean;
}

export function cardLine(product: CardProduct, choice: CardChoice = NO_CHOICE): CardLine {
  const { statement } = product;
  if (product.noDebt || choice.option === null || !cardOptionsOffered(statement.pagoMinimo).includes(choice.option)) return { product, option: null, amount: 0, error: null, valid: false };
  const amount =
    choice.option === 'minimo'
      ? statement.pagoMinimo
      : choice.option === 'total'
        ? statement.montoPendiente
        : (parseClpDigits(choice.text) ?? 0);
  const rule = cardAmountError(amount, statement.pagoMinimo, statement.montoPendiente);
  const error = choice.option === 'abonar' && choice.text !== '' ? rule : null;
  return { product, option: choice.option, amount, error, valid: amount > 0 && rule === null };
}

export const cardLines = (products: readonly CardProduct[], choices: CardChoices) =>
  products.map((p) => cardLine(p, choices[p.numeroProducto]));

/** Specification §4: the pay button waits for a valid option; a chosen option must be valid. */
export const canPayCards = (lines: readonly CardLine[]) =>
  lines.some((line) => line.valid) && lines.every((line) => line.valid || line.option === null);

export function cardSelection(family: Family, lines: readonly CardLine[]): Selection {
  const paying = lines.filter((line) => line.valid);
  return {
    family,
    productsToPay: paying.map((line) => ({
      productNumber: line.product.numeroProducto,
      installment: [installmentOf(line.product.statement, line.amount)],
    })),
    amount: paying.reduce((sum, line) => sum + line.amount, 0),
  };
}

/** The option the member chose before (back from step 3), or none. */
export function initialCardChoices(products: readonly CardProduct[], selection: Selection, family: Family): CardChoices {
  const previous = previousEntries(selection, family);
  return Object.fromEntries(
    products.map((p): [string, CardChoice] => {
      const monto = previous?.get(p.numeroProducto)?.[0]?.monto;
      if (monto === undefined || p.noDebt) return [p.numeroProducto, NO_CHOICE];
      if (monto === p.statement.montoPendiente) return [p.numeroProducto, { option: 'total', text: '' }];
      if (monto === p.statement.pagoMinimo && cardOptionsOffered(monto).includes('minimo')) return [p.numeroProducto, { option: 'minimo', text: '' }];
      return [p.numeroProducto, { option: 'abonar', text: formatThousands(monto) }];
    }),
  );
}
