import type { StoreTransaction } from '@pago/domain/schemas/call-pagoexpress';
import type { Family } from '@pago/domain/families';
import { debitCreditSwitchName } from '@pago/domain/parameters';
import { decodeInstallment } from '@pago/domain/selection';
import type { ProductToPay } from '../../lib/app-store';


const COMMERCE_CODE = /^\d{12}$/;

/**
 * Specification §9: pagoDebitoCredito{family} = '1' selects the debit-and-credit commerce code (pagoWPDebitoCredito),
 * anything else the debit-only one (pagoWPDebito). null when the chosen one is missing or is not a commerce code.
 */
export function commerceCodeFor(family: Family, parameters: Readonly<Record<string, string>>): string | null {
  const code =
    parameters[debitCreditSwitchName(family)] === '1' ? parameters['pagoWPDebitoCredito'] : parameters['pagoWPDebito'];
  return code !== undefined && COMMERCE_CODE.test(code) ? code : null;
}

/**
 * The stores of call 10, one per product of the selection, in the selection's order; each amount is the sum of that
 * product's installment strings. null when there is nothing payable to send: no product, a product without
 * instalments, an unreadable installment string or a product that adds up to 0, or no commerce code. The server
 * compares every store with the selection it froze in call 3 and refuses any difference.
 */
export function buildStores(
  productsToPay: readonly ProductToPay[],
  family: Family,
  parameters: Readonly<Record<string, string>>,
): StoreTransaction[] | null {
  const commerceCode = commerceCodeFor(family, parameters);
  if (commerceCode === null || productsToPay.length === 0) return null;
  const stores: StoreTransaction[] = [];
  for (const { productNumber, installment } of productsToPay) {
    if (productNumber === '' || installment.length === 0) return null;
    let amount = 0;
    for (const text of installment) {
      const entry = decodeInstallment(text);
      if (!entry) return null;
      amount += entry.monto;
    }
    if (amount <= 0 || !Number.isSafeInteger(amount)) return null;
    stores.push({ amount, commerceCode, transactionId: productNumber });
  }
  return stores;
}

/** call 10's sessionId: the session token and the member's canonical RUT, joined. */
export function sessionIdOf(sessionToken: string, rut: string): string {
  return `${sessionToken}${rut}`;
}
