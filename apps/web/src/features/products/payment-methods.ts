import { kindOf, type Family } from '@pago/domain/families';
import { debitCreditSwitchName } from '@pago/domain/parameters';
import { cardMethodOffered, type InstalmentState } from '@pago/domain/products';
import type { SelectedProduct } from './selection-request';
import { PRODUCT_NAME } from '../../lib/env';
import { DEFAULT_METHOD_PAY, WEBPAY_METHOD_PAY } from '../../lib/paths';

export type MethodKind = 'own' | 'card';

export interface PaymentMethod {
  kind: MethodKind;
  /** What is stored as the method of payment: '{product}methodpay' or 'webpaymethodpay'. */
  methodPay: string;
  label: string;
  description: string;
}

const DEFAULT_CARD_PROVIDER = 'Webpay';

/** The states of the instalments the member chose on step 2 (the selection's installment strings). */
export function chosenInstalments(selected: readonly SelectedProduct[]): InstalmentState[] {
  return selected.flatMap(({ entries }) => entries.map((entry): InstalmentState => ({ codigoEstadoCuota: entry.estado === 'V' ? 'V' : 'A', diasMora: entry.diasMora })));
}

/** The methods step 3 offers, the cooperative's own first (always offered). */
export function paymentMethods(family: Family, parameters: Readonly<Record<string, string>>, selected: readonly SelectedProduct[]): PaymentMethod[] {
  const own: PaymentMethod = {
    kind: 'own',
    methodPay: DEFAULT_METHOD_PAY,
    label: `Cuenta Vista ${PRODUCT_NAME}`,
    description: 'Paga desde tu cuenta vista con tu clave de internet y un segundo factor de autorización.',
  };
  if (!cardMethodOffered(family, parameters, chosenInstalments(selected))) return [own];
  // pagoDebitoCredito{family} chooses the debit-and-credit commerce code over the debit-only one (spec §9).
  const acceptsCredit = parameters[debitCreditSwitchName(family)] === '1';
  const card: PaymentMethod = {
    kind: 'card',
    methodPay: WEBPAY_METHOD_PAY,
    label: parameters['medioPagoWP']?.trim() || DEFAULT_CARD_PROVIDER,
    description: acceptsCredit
      ? 'Paga con tu tarjeta de débito o de crédito.'
      : 'Paga con tu tarjeta de débito o prepago.',
  };
  return [own, card];
}

/** Specification §2 'Step 3': a credit card cannot be paid with credit cards; choosing the card provider warns. */
export const warnsBeforeCard = (family: Family) => kindOf(family) === 'card';
