import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Selection } from '../lib/app-store';
import { paymentLines, PaymentTotal } from './payment-total';

const selection: Selection = {
  family: 'PC',
  productsToPay: [
    { productNumber: '410012345678', installment: ['1|1|20260101|A|0', '2|1|20260201|A|0'] },
    { productNumber: '410087654321', installment: ['1|1|20260101|A|0'] },
  ],
  amount: 3,
};

describe('paymentLines', () => {
  it('names each product with its masked number, and counts instalments of credits', () => {
    expect(paymentLines(selection, 'PC')).toEqual([
      'Crédito de Consumo Nº ****5678 · 2 cuotas',
      'Crédito de Consumo Nº ****4321 · 1 cuota',
    ]);
    expect(paymentLines({ ...selection, family: 'AH' }, 'AH')[0]).toBe('Cuenta de Ahorro Nº ****5678');
  });
});

describe('PaymentTotal', () => {
  it('shows the amount in pesos, then one line per product', () => {
    render(<PaymentTotal amount={156_300} selection={selection} category="PC" />);
    expect(screen.getByText('Total a pagar')).toBeVisible();
    expect(screen.getByText('$156.300')).toBeVisible();
    const lines = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      'Crédito de Consumo Nº ****5678 · 2 cuotas',
      'Crédito de Consumo Nº ****4321 · 1 cuota',
    ]);
  });

  it('adds what the payment method takes under the lines', () => {
    render(
      <PaymentTotal amount={3} selection={selection} category="PC">
        <p>Paga con tu tarjeta de débito o prepago.</p>
      </PaymentTotal>,
    );
    expect(screen.getByText('Paga con tu tarjeta de débito o prepago.')).toBeVisible();
  });
});
