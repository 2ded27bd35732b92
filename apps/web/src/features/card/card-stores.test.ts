import { describe, expect, it } from 'vitest';
import type { ProductToPay } from '../../lib/app-store';
import { buildStores, commerceCodeFor, sessionIdOf } from './card-stores';

const PARAMETERS = {
  pagoWPDebitoCredito: '597055555536',
  pagoWPDebito: '597055555537',
  pagoDebitoCreditoPM: '1',
  pagoDebitoCreditoTC: '0',
};

describe('the commerce code of a card payment (specification §9)', () => {
  it.each([
    ['PM', { ...PARAMETERS }, '597055555536'],
    ['TC', { ...PARAMETERS }, '597055555537'],
    // Only '1' turns the switch on; a missing switch means debit only.
    ['PC', { ...PARAMETERS }, '597055555537'],
    ['PM', { ...PARAMETERS, pagoDebitoCreditoPM: 'si' }, '597055555537'],
    ['PM', { ...PARAMETERS, pagoWPDebitoCredito: '' }, null],
    ['TC', { ...PARAMETERS, pagoWPDebito: '59705555553' }, null],
    ['TC', { pagoDebitoCreditoTC: '0' }, null],
  ] as const)('%s with %o → %s', (family, parameters, expected) => {
    expect(commerceCodeFor(family, parameters)).toBe(expected);
  });
});

describe('the stores of call 10, from the installment strings', () => {
  it('makes one store per product, in order, each the sum of its instalments', () => {
    const productsToPay: ProductToPay[] = [
      { productNumber: '630055667788', installment: ['9|156300|20300605|A|0', '10|156300|20300705|A|0'] },
      { productNumber: '630099990000', installment: ['3|40000|20300301|V|12'] },
    ];
    expect(buildStores(productsToPay, 'PM', PARAMETERS)).toEqual([
      { amount: 312_600, commerceCode: '597055555536', transactionId: '630055667788' },
      { amount: 40_000, commerceCode: '597055555536', transactionId: '630099990000' },
    ]);
  });

  it('reads a savings deposit (number|amount|state|0) and a chosen partial amount', () => {
    expect(
      buildStores([{ productNumber: '800012345678', installment: ['0|25000|A|0'] }], 'AH', {
        ...PARAMETERS,
        pagoDebitoCreditoAH: '0',
      }),
    ).toEqual([{ amount: 25_000, commerceCode: '597055555537', transactionId: '800012345678' }]);
    expect(buildStores([{ productNumber: '5412', installment: ['1|35000|20300625|A|0'] }], 'TC', PARAMETERS)).toEqual([
      { amount: 35_000, commerceCode: '597055555537', transactionId: '5412' },
    ]);
  });

  it.each<[string, ProductToPay[], Record<string, string>]>([
    ['no product', [], PARAMETERS],
    ['a product without instalments', [{ productNumber: '1', installment: [] }], PARAMETERS],
    ['a product without a number', [{ productNumber: '', installment: ['1|100|20300101|A|0'] }], PARAMETERS],
    ['an unreadable installment string', [{ productNumber: '1', installment: ['1|cien|20300101|A|0'] }], PARAMETERS],
    ['a product that adds up to 0', [{ productNumber: '1', installment: ['1|0|20300101|A|0'] }], PARAMETERS],
    ['no commerce code', [{ productNumber: '1', installment: ['1|100|20300101|A|0'] }], {}],
  ])('gives nothing to send for %s', (_label, productsToPay, parameters) => {
    expect(buildStores(productsToPay, 'PM', parameters)).toBeNull();
  });
});

describe('the session id of call 10', () => {
  it('joins the session token and the canonical RUT', () => {
    expect(sessionIdOf('abcDEF123', '11111111-1')).toBe('abcDEF12311111111-1');
  });
});
