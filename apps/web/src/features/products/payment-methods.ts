import type { Family } from '@pago/domain/families';
import { debitCreditSwitchName, graceDaysName, webPaySwitchName } from '@pago/domain/parameters-plain';
import { applyGraceFilter, detallesOf, isCardMethodOffered } from '@pago/domain/products-plain';
import type { Producto } from '@pago/domain/products';
import type { Selection } from '../../lib/app-store';
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

/**
 * Specification §2/§4 'Step 3': the card provider is offered when the family's pagoWebPay switch is 1, or when the
 * instalments step 2 showed for the selected products are all overdue past the family's grace days.
 */
export function cardMethodOffered(
  family: Family,
  parameters: Readonly<Record<string, string>>,
  products: readonly Producto[],
  selection: Selection,
): boolean {
  const graceDays = Number(parameters[graceDaysName(family)]);
  const shownInStepTwo = applyGraceFilter(
    products.filter((product) => product.tipoFamiliaProducto === family),
    graceDays,
  ).products;
  const selected = new Set(selection.productsToPay.map((entry) => entry.productNumber));
  const shown = shownInStepTwo.filter((product) => selected.has(product.numeroProducto)).flatMap(detallesOf);
  return isCardMethodOffered(parameters[webPaySwitchName(family)], shown, graceDays);
}

/** The methods step 3 offers, the cooperative's own first (always offered). */
export function paymentMethods(
  family: Family,
  parameters: Readonly<Record<string, string>>,
  products: readonly Producto[],
  selection: Selection,
): PaymentMethod[] {
  const own: PaymentMethod = {
    kind: 'own',
    methodPay: DEFAULT_METHOD_PAY,
    label: `Cuenta Vista ${PRODUCT_NAME}`,
    description: 'Paga desde tu cuenta vista con tu clave de internet y un segundo factor de autorización.',
  };
  if (!cardMethodOffered(family, parameters, products, selection)) return [own];
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
export const warnsBeforeCard = (family: Family) => family === 'TC';
