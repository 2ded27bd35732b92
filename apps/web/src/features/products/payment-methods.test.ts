import { describe, expect, it } from 'vitest';
import type { Selection } from '../../lib/app-store';
import { chosenInstalments, paymentMethods, warnsBeforeCard } from './payment-methods';
import { resolveSelection, type SelectedProduct } from './selection-request';
import { everyFamily, overdueMortgage, SEED_PARAMETERS } from './test-builders';

/** The products step 2 handed to step 3, with instalments in the state `installment` says (number|amount|date|state|days). */
const chosen = (family: NonNullable<Selection['family']>, productNumber: string, installment = ['1|1000|20300101|A|0']): SelectedProduct[] => {
  const selection: Selection = { family, productsToPay: [{ productNumber, installment }], amount: 1000 };
  const resolved = resolveSelection(selection, [...everyFamily(), overdueMortgage()], family);
  if (!resolved) throw new Error(`no ${family} product ${productNumber} in the builders`);
  return resolved;
};
const offersCard = (family: NonNullable<Selection['family']>, parameters: Record<string, string>, selected: SelectedProduct[]) =>
  paymentMethods(family, parameters, selected).some((m) => m.kind === 'card');

describe('the card method at step 3', () => {
  it("is offered when the family's pagoWebPay switch is 1", () => {
    expect(offersCard('PC', SEED_PARAMETERS, chosen('PC', '410012345678'))).toBe(true);
  });

  it('is not offered for a current mortgage with pagoWebPayHI 0', () => {
    expect(offersCard('HI', SEED_PARAMETERS, chosen('HI', '610011112222'))).toBe(false);
  });

  it('is offered when the chosen instalments are all overdue past the grace days, and not with more grace', () => {
    const overdue = chosen('HI', '610098765432', ['57|152300|20240101|V|75', '58|152300|20240201|V|45']);
    expect(chosenInstalments(overdue)).toEqual([
      { codigoEstadoCuota: 'V', diasMora: 75 },
      { codigoEstadoCuota: 'V', diasMora: 45 },
    ]);
    expect(offersCard('HI', SEED_PARAMETERS, overdue)).toBe(true);
    expect(offersCard('HI', { ...SEED_PARAMETERS, diasMoraHI: '90' }, overdue)).toBe(false);
  });

  it('is not offered when a chosen instalment is still within the grace days', () => {
    expect(offersCard('HI', SEED_PARAMETERS, chosen('HI', '610098765432', ['57|152300|20240101|V|30']))).toBe(false);
  });
});

describe('paymentMethods', () => {
  it("always offers the cooperative's own method first", () => {
    const [own, ...rest] = paymentMethods('HI', SEED_PARAMETERS, chosen('HI', '610011112222'));
    expect(own).toMatchObject({ kind: 'own', methodPay: 'coopmethodpay', label: 'Cuenta Vista Cooperativa' });
    expect(rest).toEqual([]);
  });

  it('names the card provider from medioPagoWP, with the cards its commerce code takes', () => {
    const methods = paymentMethods('PC', { ...SEED_PARAMETERS, medioPagoWP: 'Webpay Plus' }, chosen('PC', '410012345678'));
    expect(methods.map((m) => m.kind)).toEqual(['own', 'card']);
    expect(methods[1]).toMatchObject({ methodPay: 'webpaymethodpay', label: 'Webpay Plus' });
    expect(methods[1]?.description).toContain('crédito');
    const tc = paymentMethods('TC', SEED_PARAMETERS, chosen('TC', '5412000011112222'));
    expect(tc[1]?.description).toContain('débito o prepago');
  });

  it("says 'Webpay' when medioPagoWP is missing", () => {
    const parameters: Record<string, string> = { ...SEED_PARAMETERS };
    delete parameters['medioPagoWP'];
    expect(paymentMethods('PC', parameters, chosen('PC', '410012345678'))[1]?.label).toBe('Webpay');
  });
});

it('warns before the card provider only for the credit card', () => {
  expect(warnsBeforeCard('TC')).toBe(true);
  expect((['PC', 'CP', 'HI', 'PM', 'AH'] as const).some(warnsBeforeCard)).toBe(false);
});
