import { describe, expect, it } from 'vitest';
import type { Selection } from '../../../lib/app-store';
import {
  canContinueSavings,
  checkAccount,
  initialSavingsChoices,
  savingsLine,
  savingsLines,
  savingsSelection,
  setDepositText,
} from './savings';
import { savingsAccount } from './test-products';

const typed = (text: string) => setDepositText(checkAccount(true), text);

describe('savings deposits (AH)', () => {
  it('strips non-digits and shows thousand dots', () => {
    expect(typed('12a34.5-6').text).toBe('123.456');
    expect(typed('abc').text).toBe('');
  });

  it('takes from 1.000 to less than 5.000.000 per account', () => {
    expect(savingsLine('1', typed('999')).error).toBe('El monto a abonar tiene que ser mayor $1000');
    expect(savingsLine('1', typed('1000'))).toMatchObject({ error: null, valid: true, amount: 1_000 });
    expect(savingsLine('1', typed('4999999'))).toMatchObject({ error: null, valid: true });
    expect(savingsLine('1', typed('5000000')).error).toBe('El monto a abonar tiene que ser menor a $5.000.000');
  });

  it('says nothing before the member types, but does not continue either', () => {
    const line = savingsLine('1', checkAccount(true));
    expect(line).toMatchObject({ error: null, valid: false });
    expect(canContinueSavings([line])).toBe(false);
  });

  it('clears the amount, and its message, when the account is unchecked', () => {
    expect(checkAccount(false)).toEqual({ checked: false, text: '' });
    expect(savingsLine('1', { checked: false, text: '' }).error).toBeNull();
  });

  it('continues with at least one account checked and a valid amount in every checked one', () => {
    const a = savingsLine('1', typed('20000'));
    const b = savingsLine('2', typed('500'));
    const unchecked = savingsLine('3', checkAccount(false));
    expect(canContinueSavings([unchecked])).toBe(false);
    expect(canContinueSavings([a, unchecked])).toBe(true);
    expect(canContinueSavings([a, b])).toBe(false);
  });

  it('hands step 3 one deposit string per checked account', () => {
    const products = [savingsAccount('800012340001'), savingsAccount('800012340002')];
    const lines = savingsLines(products, { '800012340001': typed('25000'), '800012340002': checkAccount(false) });
    expect(savingsSelection('AH', lines)).toEqual({
      family: 'AH',
      productsToPay: [{ productNumber: '800012340001', installment: ['0|25000|A|0'] }],
      amount: 25_000,
    });
  });

  it('restores the previous deposits when the member comes back from step 3', () => {
    const products = [savingsAccount('800012340001'), savingsAccount('800012340002')];
    const previous: Selection = {
      family: 'AH',
      productsToPay: [{ productNumber: '800012340002', installment: ['0|25000|A|0'] }],
      amount: 25_000,
    };
    expect(initialSavingsChoices(products, previous, 'AH')).toEqual({
      '800012340001': { checked: false, text: '' },
      '800012340002': { checked: true, text: '25.000' },
    });
  });
});
