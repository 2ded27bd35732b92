import { describe, expect, it } from 'vitest';
import type { Selection } from '../../lib/app-store';
import { cardMethodOffered, paymentMethods, warnsBeforeCard } from './payment-methods';
import { detalle, everyFamily, overdueMortgage, product, SEED_PARAMETERS } from './test-builders';

const select = (family: Selection['family'], ...productNumbers: string[]): Selection => ({
  family,
  productsToPay: productNumbers.map((productNumber) => ({ productNumber, installment: ['1|1000|20300101|A|0'] })),
  amount: 1000,
});

describe('cardMethodOffered', () => {
  it("offers the card provider when the family's pagoWebPay switch is 1", () => {
    expect(cardMethodOffered('PC', SEED_PARAMETERS, everyFamily(), select('PC', '410012345678'))).toBe(true);
  });

  it('does not offer it for a current mortgage with pagoWebPayHI 0', () => {
    expect(cardMethodOffered('HI', SEED_PARAMETERS, everyFamily(), select('HI', '610011112222'))).toBe(false);
  });

  it('offers it when the instalments step 2 showed are all overdue past the grace days', () => {
    // Step 2 showed only the two instalments 75 and 45 days overdue (grace 30): the grace filter hid the others.
    expect(cardMethodOffered('HI', SEED_PARAMETERS, [overdueMortgage()], select('HI', '610098765432'))).toBe(true);
  });

  it('does not offer it when an overdue instalment is still within the grace days', () => {
    const withinGrace = product('HI', '610098765432', [detalle(61, '20300301', { codigoEstadoCuota: 'V', diasMora: 30 })]);
    expect(cardMethodOffered('HI', SEED_PARAMETERS, [withinGrace], select('HI', '610098765432'))).toBe(false);
  });

  it('reads the grace days of the family: with more grace the same mortgage is not offered', () => {
    const parameters = { ...SEED_PARAMETERS, diasMoraHI: '90' };
    expect(cardMethodOffered('HI', parameters, [overdueMortgage()], select('HI', '610098765432'))).toBe(false);
  });

  it('looks only at the selected products', () => {
    const current = product('HI', '610011112222', [detalle(41, '20300605')]);
    const products = [overdueMortgage(), current];
    // The grace filter hides the current mortgage in step 2, so only the overdue one can be selected.
    expect(cardMethodOffered('HI', SEED_PARAMETERS, products, select('HI', '610098765432'))).toBe(true);
    expect(cardMethodOffered('HI', SEED_PARAMETERS, products, select('HI', '610011112222'))).toBe(false);
  });
});

describe('paymentMethods', () => {
  it("always offers the cooperative's own method first", () => {
    const [own, ...rest] = paymentMethods('HI', SEED_PARAMETERS, everyFamily(), select('HI', '610011112222'));
    expect(own).toMatchObject({ kind: 'own', methodPay: 'coopmethodpay', label: 'Cuenta Vista Cooperativa' });
    expect(rest).toEqual([]);
  });

  it('names the card provider from medioPagoWP, with the cards its commerce code takes', () => {
    const methods = paymentMethods('PC', { ...SEED_PARAMETERS, medioPagoWP: 'Webpay Plus' }, everyFamily(), select('PC', '410012345678'));
    expect(methods.map((m) => m.kind)).toEqual(['own', 'card']);
    expect(methods[1]).toMatchObject({ methodPay: 'webpaymethodpay', label: 'Webpay Plus' });
    expect(methods[1]?.description).toContain('crédito');
    const tc = paymentMethods('TC', SEED_PARAMETERS, everyFamily(), select('TC', '5412000011112222'));
    expect(tc[1]?.description).toContain('débito o prepago');
  });

  it("says 'Webpay' when medioPagoWP is missing", () => {
    const parameters: Record<string, string> = { ...SEED_PARAMETERS };
    delete parameters['medioPagoWP'];
    expect(paymentMethods('PC', parameters, everyFamily(), select('PC', '410012345678'))[1]?.label).toBe('Webpay');
  });
});

it('warns before the card provider only for the credit card', () => {
  expect(warnsBeforeCard('TC')).toBe(true);
  expect((['PC', 'CP', 'HI', 'PM', 'AH'] as const).some(warnsBeforeCard)).toBe(false);
});
