import { GENERIC_SERVICE_MESSAGE, isKnownCode, type DetalleError } from '@pago/domain/errors';
import type { Family } from '@pago/domain/families';
import { paths } from './paths';

/**
 * Where the member goes when a call answers with a business error (specification §8), per call and per code.
 * The screens ask `routeError` and do what it says; none of them decides on its own.
 */
export type ErrorCall =
  | 'consultarParametros'
  | 'listarProductos'
  | 'seleccionarProducto'
  /** The same call made on the card-provider path, where most codes end on the error page. */
  | 'seleccionarProductoWebpay'
  | 'autentica'
  | 'autorizar'
  | 'pagar'
  | 'consultarPago';

export type ErrorAction =
  /** customError showing the server's description. */
  | 'customErrorDescription'
  /** customError showing GENERIC_SERVICE_MESSAGE. */
  | 'customErrorGeneric'
  /** Keep the error detail and open /pagoexpress/infomessage. */
  | 'infoMessage'
  /** Keep the error detail and open /pagoexpress/informativemessage. */
  | 'informativeMessage'
  /** /pagoexpress/error, the generic payment failure. */
  | 'errorPage'
  /** Stay on the screen and show the server's description in a modal. */
  | 'modal'
  | 'blockedUser'
  | 'insufficientFunds'
  /** /pagoexpress/ErrorLogin: a deposit into another member's savings account (451). */
  | 'errorLogin'
  /** Back to the checking-account login of the category. */
  | 'methodPay';

export interface CallRule {
  /** Codes with an action of their own, whether or not the catalogue knows them. */
  readonly codes: Readonly<Record<string, ErrorAction>>;
  /** Any other code of the catalogue. */
  readonly known: ErrorAction;
  /** A code the catalogue does not know. */
  readonly unknown: ErrorAction;
}

const each = (codes: readonly string[], action: ErrorAction): Record<string, ErrorAction> =>
  Object.fromEntries(codes.map((code) => [code, action]));

export const ERROR_ROUTING: Readonly<Record<ErrorCall, CallRule>> = {
  consultarParametros: { codes: {}, known: 'customErrorDescription', unknown: 'customErrorGeneric' },
  listarProductos: {
    codes: { ...each(['47501', '47883', '41027'], 'infoMessage'), ...each(['465', '492'], 'informativeMessage') },
    known: 'customErrorDescription',
    unknown: 'customErrorGeneric',
  },
  seleccionarProducto: { codes: {}, known: 'customErrorDescription', unknown: 'customErrorGeneric' },
  seleccionarProductoWebpay: {
    // 443 beyond §8: a payment of the same instalments is under way elsewhere; the member must read why.
    codes: each(['415', '47678', '49010', '4953', '41027', '461', '463', '505', '443'], 'customErrorDescription'),
    known: 'errorPage',
    unknown: 'errorPage',
  },
  // 4953 on login, challenge or payment: closing hours came after the selection; its description says when payments
  // reopen, which the general failure page would not. 443: another tab's payment of the same instalments is under way
  // (a card form open); the member must read why rather than a general failure.
  autentica: {
    codes: { '45203113': 'modal', '45203016': 'blockedUser', '451': 'errorLogin', ...each(['4953', '443'], 'customErrorDescription') },
    known: 'errorPage',
    unknown: 'errorPage',
  },
  autorizar: {
    codes: { '45203113': 'modal', '45203017': 'modal', '440': 'methodPay', ...each(['4953', '443'], 'customErrorDescription') },
    known: 'errorPage',
    unknown: 'errorPage',
  },
  pagar: {
    codes: {
      ...each(['5203000', '5203007'], 'modal'),
      ...each(['7203', '47203', '7905'], 'insufficientFunds'),
      ...each(['4953', '443'], 'customErrorDescription'),
    },
    known: 'errorPage',
    unknown: 'errorPage',
  },
  consultarPago: {
    codes: each(['516', '509'], 'customErrorDescription'),
    known: 'errorPage',
    unknown: 'errorPage',
  },
};

export type ErrorOutcome =
  /** Store `message` as the customError message, then open /pagoexpress/customError. */
  | { kind: 'customError'; message: string }
  /** Store `detail` as the info message, then open `to`. */
  | { kind: 'infoMessage'; to: string; detail: DetalleError }
  | { kind: 'navigate'; to: string }
  /** Stay and show `message` in a modal. */
  | { kind: 'modal'; message: string };

export interface ErrorContext {
  /** The category of the screen that made the call; needed to go back to its login. */
  category?: Family;
}

export function errorAction(call: ErrorCall, codigo: string): ErrorAction {
  const rule = ERROR_ROUTING[call];
  return rule.codes[codigo] ?? (isKnownCode(codigo) ? rule.known : rule.unknown);
}

export function routeError(call: ErrorCall, error: DetalleError, context: ErrorContext = {}): ErrorOutcome {
  // An empty description would leave the member before a blank page.
  const description = error.descripcion.trim() || GENERIC_SERVICE_MESSAGE;
  switch (errorAction(call, error.codigo)) {
    case 'customErrorDescription':
      return { kind: 'customError', message: description };
    case 'customErrorGeneric':
      return { kind: 'customError', message: GENERIC_SERVICE_MESSAGE };
    case 'infoMessage':
      return { kind: 'infoMessage', to: paths.infoMessage, detail: error };
    case 'informativeMessage':
      return { kind: 'infoMessage', to: paths.informativeMessage, detail: error };
    case 'modal':
      return { kind: 'modal', message: description };
    case 'blockedUser':
      return { kind: 'navigate', to: paths.blockedUser };
    case 'insufficientFunds':
      return { kind: 'navigate', to: paths.insufficientFunds };
    case 'errorLogin':
      return { kind: 'navigate', to: paths.errorLogin };
    case 'methodPay':
      // Without a category there is no login to go back to.
      return { kind: 'navigate', to: context.category ? paths.methodPay(context.category) : paths.error };
    case 'errorPage':
      return { kind: 'navigate', to: paths.error };
  }
}

/** A call that failed without a business answer: network failure, non-2xx status, unreadable body. */
export const FAILURE_OUTCOME: ErrorOutcome = { kind: 'navigate', to: paths.error };
