import type { Family } from '@pago/domain/families';
import type { CardProviderTokens, ProductToPay } from '../../lib/app-store';
import { FAILURE_OUTCOME, routeError, type ErrorOutcome } from '../../lib/error-routing';
import { authCardPayment, initMall } from './api/pagoexpress';
import { buildStores, sessionIdOf } from './card-stores';
import { oncePerKey } from './once-per-key';

export interface HandOffInput {
  family: Family;
  idTrx: string;
  session: { rut: string; token: string };
  productsToPay: readonly ProductToPay[];
  parameters: Readonly<Record<string, string>>;
}

/** Webpay's form to post to, or where the member goes instead. */
export type HandOffResult = { kind: 'ready'; url: string; token: string } | { kind: 'outcome'; outcome: ErrorOutcome };

/**
 * Specification §4 'Payment flow (b)': call 9 with the session, call 10 with the payment host's token and one store
 * per product, then the tokens are kept (`save`) and the form can be posted. A refusal follows the card path's
 * routing of specification §8; a failure without an answer goes to the error page.
 */
export async function handOffToWebpay(
  input: HandOffInput,
  save: (tokens: CardProviderTokens) => void,
): Promise<HandOffResult> {
  const { family, idTrx, session } = input;
  const refused = (error: Parameters<typeof routeError>[1]): HandOffResult => ({
    kind: 'outcome',
    outcome: routeError('seleccionarProductoWebpay', error, { category: family }),
  });
  const failed: HandOffResult = { kind: 'outcome', outcome: FAILURE_OUTCOME };

  // Checked before any call: nothing is opened at Webpay for a selection that cannot be sent.
  const storesTransaction = buildStores(input.productsToPay, family, input.parameters);
  if (!storesTransaction || !session.token || !session.rut) return failed;

  try {
    const auth = await authCardPayment(session.token, idTrx);
    if (auth.kind === 'error') return refused(auth.error);
    const init = await initMall(auth.token, {
      sessionId: sessionIdOf(session.token, session.rut),
      transactionId: idTrx,
      storesTransaction,
    });
    if (init.kind === 'error') return refused(init.error);
    save({ idTrx, tokenJWT: auth.token, tokenWP: init.token, urlInit: init.url });
    return { kind: 'ready', url: init.url, token: init.token };
  } catch {
    return failed;
  }
}

const once = oncePerKey<HandOffResult>();

/** handOffToWebpay, once per transaction however many times the screen asks while it is under way. */
export function handOffOnce(input: HandOffInput, save: (tokens: CardProviderTokens) => void): Promise<HandOffResult> {
  return once(input.idTrx, () => handOffToWebpay(input, save));
}
