import {
  AUTHORISATION_TIMEOUT,
  AUTHORISER_BLOCKED_CODE,
  AUTHORISER_DEFAULT_MESSAGE,
  AUTHORISER_IGNORED_CODE,
  AUTHORISER_INVALID_CODE_CODE,
  AUTHORISER_REJECTED_CODE,
  COORDINATE_CARD_DEFAULT_MESSAGE,
  COORDINATE_CARD_MESSAGES,
  coordinateCardMessage,
  isKnownCode,
  mobileAuthoriserMessage,
  type DetalleError,
} from '@pago/domain/errors';
import type { Family } from '@pago/domain/families';
import { errorAction, routeError, type ErrorAction, type ErrorOutcome } from '../../lib/error-routing';
import { AUTHORISER_PRODUCT } from './factors';

/**
 * What a factor panel does with a business error of call 5 or 6: stay and show a message (with 'Reintentar' when
 * it makes sense), keep waiting (the authoriser's 25), or leave as error-routing says.
 */
export type PanelOutcome =
  | { kind: 'message'; message: string; retryable: boolean }
  | { kind: 'pending' }
  | { kind: 'leave'; outcome: ErrorOutcome };

type FactorCall = 'autorizar' | 'pagar';

// error-routing's rows that lead somewhere of their own (the login, insufficient funds, ...) win over any message.
const LEAVING: ReadonlySet<ErrorAction> = new Set(['methodPay', 'insufficientFunds', 'blockedUser', 'errorLogin']);

// Codes of the coordinate-card list (specification §8) and the 'timeout' state.
const CARD_CODES: ReadonlySet<string> = new Set(Object.keys(COORDINATE_CARD_MESSAGES));
// The card blocked when asking for cells: nothing to retry.
const CARD_BLOCKED_ON_REQUEST = '45203017';

/**
 * Coordinate card (factor 1). Specification §8: the card's codes show their message, with retry for timeout,
 * mismatch, no request, unavailable, time exceeded and codes outside the catalogue (the 'default'); 440 goes back
 * to the login and insufficient funds to its page. The challenge request's modal codes (45203113, 45203017) show
 * the server's description. Any other catalogue code (an expired session, a closed transaction) leaves for the
 * error page.
 */
export function coordinateOutcome(call: FactorCall, error: DetalleError, category: Family): PanelOutcome {
  const action = errorAction(call, error.codigo);
  if (LEAVING.has(action)) return { kind: 'leave', outcome: routeError(call, error, { category }) };
  if (CARD_CODES.has(error.codigo)) {
    const { descripcion, retryable } = coordinateCardMessage(error.codigo);
    return { kind: 'message', message: descripcion, retryable };
  }
  if (action === 'modal') {
    const message = error.descripcion.trim() || COORDINATE_CARD_DEFAULT_MESSAGE.descripcion;
    return { kind: 'message', message, retryable: error.codigo !== CARD_BLOCKED_ON_REQUEST };
  }
  if (!isKnownCode(error.codigo)) {
    return { kind: 'message', message: COORDINATE_CARD_DEFAULT_MESSAGE.descripcion, retryable: true };
  }
  return { kind: 'leave', outcome: routeError(call, error, { category }) };
}

/** The countdown ran out with the coordinates unanswered. */
export const COORDINATE_TIMEOUT: PanelOutcome = {
  kind: 'message',
  message: coordinateCardMessage(AUTHORISATION_TIMEOUT).descripcion,
  retryable: true,
};

// Catalogue codes the authoriser panel speaks of. A push the server let expire is the panel's timeout.
const PUSH_EXPIRED = '999';
const NOT_ENROLLED = '5203004';
const UNAVAILABLE = '503';

function authoriserMessage(code: string): string {
  // Only 25 gives null, and it never reaches here.
  return mobileAuthoriserMessage(code, AUTHORISER_PRODUCT) ?? AUTHORISER_DEFAULT_MESSAGE;
}

/** The countdown ran out before the push was approved. */
export const AUTHORISER_TIMEOUT: PanelOutcome = {
  kind: 'message',
  message: authoriserMessage(AUTHORISATION_TIMEOUT),
  retryable: true,
};

/**
 * Mobile authoriser (factor 2). Specification §8: 25 is ignored (keep polling); 7, 8, 50, timeout and default show
 * mobileAuthoriserMessage. 440 and insufficient funds leave as error-routing says; another catalogue code the
 * authoriser does not speak of (an expired session, a closed transaction) leaves for the error page.
 */
export function authoriserOutcome(call: FactorCall, error: DetalleError, category: Family): PanelOutcome {
  const code = error.codigo;
  if (code === AUTHORISER_IGNORED_CODE) return { kind: 'pending' };
  const action = errorAction(call, code);
  if (LEAVING.has(action)) return { kind: 'leave', outcome: routeError(call, error, { category }) };
  switch (code) {
    case AUTHORISER_BLOCKED_CODE:
      return { kind: 'message', message: authoriserMessage(code), retryable: false };
    case AUTHORISER_REJECTED_CODE:
    case AUTHORISER_INVALID_CODE_CODE:
      return { kind: 'message', message: authoriserMessage(code), retryable: true };
    case PUSH_EXPIRED:
      return AUTHORISER_TIMEOUT;
    case NOT_ENROLLED:
      return { kind: 'message', message: error.descripcion.trim() || authoriserMessage(code), retryable: false };
    case UNAVAILABLE:
      return { kind: 'message', message: authoriserMessage(code), retryable: true };
  }
  if (!isKnownCode(code)) return { kind: 'message', message: authoriserMessage(code), retryable: true };
  return { kind: 'leave', outcome: routeError(call, error, { category }) };
}
