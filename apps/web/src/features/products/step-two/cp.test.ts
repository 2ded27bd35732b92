import { describe, expect, it } from 'vitest';
import type { Selection } from '../../../lib/app-store';
import { canPayCp, cpCountText, cpLine, cpSelection, cpView, initialCpTexts } from './cp';
import { cpShares } from './test-products';

const [shares] = cpView([cpShares(6)]);

describe('participation shares (CP)', () => {
  it('shows the unit value and the accumulated instalments', () => {
    expect(shares).toMatchObject({ unitValue: 5_000, accumulated: 6 });
  });

  it('keeps digits only in the count', () => {
    expect(cpCountText('3a-.')).toBe('3');
  });

  it('takes a count from 1 to the accumulated instalments', () => {
    const texts = (t: string) => ({ [shares!.numeroProducto]: t });
    for (const [text, ok] of [['', false], ['0', false], ['1', true], ['6', true], ['7', false]] as const) {
      expect(canPayCp([cpLine(shares!, text)], texts(text)), `count ${JSON.stringify(text)}`).toBe(ok);
    }
  });

  it("says 'Excedes el máximo de cuotas' above the accumulated instalments, and nothing at zero", () => {
    expect(cpLine(shares!, '7').error).toBe('Excedes el máximo de cuotas');
    expect(cpLine(shares!, '0').error).toBeNull();
    expect(cpLine(shares!, '6').error).toBeNull();
  });

  it('pays the N oldest instalments, the unit value times the count', () => {
    const line = cpLine(shares!, '3');
    expect(line.total).toBe(15_000);
    expect(cpSelection('CP', [line])).toEqual({
      family: 'CP',
      productsToPay: [
        {
          productNumber: '700011111111',
          installment: ['1|5000|20250610|A|0', '2|5000|20250710|A|0', '3|5000|20250810|A|0'],
        },
      ],
      amount: 15_000,
    });
  });

  it('restores the previous count when the member comes back from step 3', () => {
    const previous: Selection = {
      family: 'CP',
      productsToPay: [{ productNumber: '700011111111', installment: ['1|5000|20250610|A|0', '2|5000|20250710|A|0'] }],
      amount: 10_000,
    };
    expect(initialCpTexts([shares!], previous, 'CP')).toEqual({ '700011111111': '2' });
    expect(initialCpTexts([shares!], { ...previous, family: 'PC' }, 'CP')).toEqual({ '700011111111': '' });
  });
});
