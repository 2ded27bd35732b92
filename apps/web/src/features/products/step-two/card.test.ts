import { describe, expect, it } from 'vitest';
import type { Selection } from '../../../lib/app-store';
import { canPayCards, cardLine, cardOptionsOf, cardSelection, cardView, chooseOption, initialCardChoices, setCardText, type CardChoice } from './card';
import { creditCard } from './test-products';

const [card] = cardView([creditCard(350_000, 35_000)]);
const NONE: CardChoice = { option: null, text: '' };
const abonar = (text: string) => setCardText(chooseOption(NONE, 'abonar'), text);

describe('credit card (TC)', () => {
  it('waits for an option', () => {
    const line = cardLine(card!, NONE);
    expect(line.valid).toBe(false);
    expect(canPayCards([line])).toBe(false);
  });

  it('pays the minimum or the total billed', () => {
    expect(cardLine(card!, chooseOption(NONE, 'minimo'))).toMatchObject({ amount: 35_000, valid: true });
    expect(cardLine(card!, chooseOption(NONE, 'total'))).toMatchObject({ amount: 350_000, valid: true });
  });

  it("takes an amount between the minimum and the total with 'Abonar'", () => {
    expect(abonar('1a2.000').text).toBe('12.000');
    expect(cardLine(card!, abonar('34999'))).toMatchObject({ error: 'Monto debe superar pago mínimo', valid: false });
    expect(cardLine(card!, abonar('35000'))).toMatchObject({ error: null, valid: true });
    expect(cardLine(card!, abonar('350000'))).toMatchObject({ error: null, valid: true });
    expect(cardLine(card!, abonar('350001'))).toMatchObject({ error: 'Monto supera deuda facturada', valid: false });
    expect(cardLine(card!, abonar(''))).toMatchObject({ error: null, valid: false });
    expect(canPayCards([cardLine(card!, abonar('350001'))])).toBe(false);
  });

  it("clears the typed amount when another option is chosen", () => {
    expect(chooseOption(abonar('50000'), 'total')).toEqual({ option: 'total', text: '' });
  });

  it("offers no 'Pago mínimo' once the minimum is paid, and no $0", () => {
    const [paidMinimum] = cardView([creditCard(300_000, 0)]);
    expect(cardOptionsOf(paidMinimum!).map((option) => option.label)).toEqual(['Total facturado', 'Abonar']);
    expect(cardOptionsOf(card!).map((option) => option.label)).toEqual(['Pago mínimo', 'Total facturado', 'Abonar']);
    expect(cardLine(paidMinimum!, chooseOption(NONE, 'minimo')).valid).toBe(false);
    expect(cardLine(paidMinimum!, abonar('0'))).toMatchObject({ error: 'Monto debe superar pago mínimo', valid: false });
    expect(cardLine(paidMinimum!, abonar('1'))).toMatchObject({ error: null, valid: true });
  });

  it('offers nothing to pay on a card without billed debt', () => {
    const [empty] = cardView([creditCard(0, 0)]);
    expect(empty!.noDebt).toBe(true);
    expect(cardLine(empty!, chooseOption(NONE, 'total')).valid).toBe(false);
  });

  it('hands step 3 the statement with the amount chosen', () => {
    expect(cardSelection('TC', [cardLine(card!, abonar('100000'))])).toEqual({
      family: 'TC',
      productsToPay: [{ productNumber: '5412751234567890', installment: ['1|100000|20250527|A|0'] }],
      amount: 100_000,
    });
  });

  it('restores the previous option when the member comes back from step 3', () => {
    const previous = (monto: number): Selection => ({
      family: 'TC',
      productsToPay: [{ productNumber: '5412751234567890', installment: [`1|${monto}|20250527|A|0`] }],
      amount: monto,
    });
    expect(initialCardChoices([card!], previous(35_000), 'TC')[card!.numeroProducto]).toEqual({ option: 'minimo', text: '' });
    expect(initialCardChoices([card!], previous(350_000), 'TC')[card!.numeroProducto]).toEqual({ option: 'total', text: '' });
    expect(initialCardChoices([card!], previous(120_000), 'TC')[card!.numeroProducto]).toEqual({ option: 'abonar', text: '120.000' });
  });
});
