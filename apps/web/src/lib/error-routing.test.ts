import { ERROR_CODES, GENERIC_SERVICE_MESSAGE, isKnownCode } from '@pago/domain/errors';
import { describe, expect, it } from 'vitest';
import { ERROR_ROUTING, errorAction, routeError, type ErrorAction, type ErrorCall } from './error-routing';
import { paths } from './paths';

/** Specification §8, written out code by code: the rows each call handles on its own. */
const EXPECTED_ROWS: Record<ErrorCall, Record<string, ErrorAction>> = {
  consultarParametros: {},
  listarProductos: {
    '47501': 'infoMessage',
    '47883': 'infoMessage',
    '41027': 'infoMessage',
    '465': 'informativeMessage',
    '492': 'informativeMessage',
  },
  seleccionarProducto: {},
  seleccionarProductoWebpay: {
    '415': 'customErrorDescription',
    '47678': 'customErrorDescription',
    '49010': 'customErrorDescription',
    '4953': 'customErrorDescription',
    '41027': 'customErrorDescription',
    '461': 'customErrorDescription',
    '463': 'customErrorDescription',
    '505': 'customErrorDescription',
    '443': 'customErrorDescription',
  },
  // Beyond §8: closing hours reached after the selection say when payments reopen (4953's description); another
  // tab's payment of the same instalments under way says why the payment stopped (443).
  autentica: { '45203113': 'modal', '45203016': 'blockedUser', '451': 'errorLogin', '4953': 'customErrorDescription', '443': 'customErrorDescription' },
  autorizar: { '45203113': 'modal', '45203017': 'modal', '440': 'methodPay', '4953': 'customErrorDescription', '443': 'customErrorDescription' },
  pagar: {
    '4953': 'customErrorDescription',
    '443': 'customErrorDescription',
    '5203000': 'modal',
    '5203007': 'modal',
    '7203': 'insufficientFunds',
    '47203': 'insufficientFunds',
    '7905': 'insufficientFunds',
  },
  consultarPago: { '516': 'customErrorDescription', '509': 'customErrorDescription' },
};

/** What every other code does, known to the catalogue or not. */
const EXPECTED_FALLBACK: Record<ErrorCall, { known: ErrorAction; unknown: ErrorAction }> = {
  consultarParametros: { known: 'customErrorDescription', unknown: 'customErrorGeneric' },
  listarProductos: { known: 'customErrorDescription', unknown: 'customErrorGeneric' },
  seleccionarProducto: { known: 'customErrorDescription', unknown: 'customErrorGeneric' },
  seleccionarProductoWebpay: { known: 'errorPage', unknown: 'errorPage' },
  autentica: { known: 'errorPage', unknown: 'errorPage' },
  autorizar: { known: 'errorPage', unknown: 'errorPage' },
  pagar: { known: 'errorPage', unknown: 'errorPage' },
  consultarPago: { known: 'errorPage', unknown: 'errorPage' },
};

const CALLS = Object.keys(EXPECTED_ROWS) as ErrorCall[];
const UNKNOWN_CODES = ['1', '12345', '45203999', '', 'abc'];

describe('error routing table', () => {
  it('covers exactly the calls of specification §8', () => {
    expect(Object.keys(ERROR_ROUTING).sort()).toEqual([...CALLS].sort());
  });

  it.each(CALLS)('%s: has exactly the rows of the specification', (call) => {
    expect(ERROR_ROUTING[call].codes).toEqual(EXPECTED_ROWS[call]);
  });

  // Every code of the catalogue, plus codes it does not know, through every call.
  const cases = CALLS.flatMap((call) =>
    [...new Set([...ERROR_CODES, ...Object.keys(EXPECTED_ROWS[call]), ...UNKNOWN_CODES])].map(
      (code) => [call, code] as const,
    ),
  );
  it.each(cases)('%s, code %j', (call, code) => {
    const expected =
      EXPECTED_ROWS[call][code] ??
      (isKnownCode(code) ? EXPECTED_FALLBACK[call].known : EXPECTED_FALLBACK[call].unknown);
    expect(errorAction(call, code)).toBe(expected);
  });
});

describe('routeError', () => {
  const detail = (codigo: string, descripcion = 'Descripción del servidor.') => ({ codigo, descripcion });

  it('parameter call: a known code shows the server description on customError', () => {
    expect(routeError('consultarParametros', detail('500'))).toEqual({
      kind: 'customError',
      message: 'Descripción del servidor.',
    });
  });

  it('parameter call: an unknown code shows the generic message on customError', () => {
    expect(routeError('consultarParametros', detail('987654'))).toEqual({
      kind: 'customError',
      message: GENERIC_SERVICE_MESSAGE,
    });
    expect(GENERIC_SERVICE_MESSAGE).toBe(
      'En estos momentos nuestros servicios no están disponibles. Vuelve a intentarlo más tarde.',
    );
  });

  it('a known code with an empty description falls back to the generic message', () => {
    expect(routeError('consultarParametros', detail('500', '  '))).toEqual({
      kind: 'customError',
      message: GENERIC_SERVICE_MESSAGE,
    });
  });

  it('product list: keeps the detail and opens the informative screens', () => {
    expect(routeError('listarProductos', detail('47501'))).toEqual({
      kind: 'infoMessage',
      to: '/pagoexpress/infomessage',
      detail: detail('47501'),
    });
    expect(routeError('listarProductos', detail('492'))).toEqual({
      kind: 'infoMessage',
      to: '/pagoexpress/informativemessage',
      detail: detail('492'),
    });
  });

  it('login: wrong password is a modal, a blocked password the blocked page, anything else the error page', () => {
    expect(routeError('autentica', detail('45203113'))).toEqual({ kind: 'modal', message: 'Descripción del servidor.' });
    expect(routeError('autentica', detail('45203016'))).toEqual({ kind: 'navigate', to: '/pagoexpress/bloquedUser' });
    expect(routeError('autentica', detail('500'))).toEqual({ kind: 'navigate', to: '/pagoexpress/error' });
  });

  it("login: a deposit into another member's savings account opens ErrorLogin", () => {
    expect(routeError('autentica', detail('451'))).toEqual({ kind: 'navigate', to: '/pagoexpress/ErrorLogin' });
  });

  it('challenge request: 440 goes back to the login of the category', () => {
    expect(routeError('autorizar', detail('440'), { category: 'PC' })).toEqual({
      kind: 'navigate',
      to: paths.methodPay('PC'),
    });
    expect(paths.methodPay('PC')).toBe('/pagoexpress/PC/coopmethodpay');
    // Without a category there is no login to go back to.
    expect(routeError('autorizar', detail('440'))).toEqual({ kind: 'navigate', to: '/pagoexpress/error' });
  });

  it('payment: insufficient funds opens its page', () => {
    for (const code of ['7203', '47203', '7905']) {
      expect(routeError('pagar', detail(code))).toEqual({ kind: 'navigate', to: '/pagoexpress/InsufficientFunds' });
    }
  });

  it('voucher query: 516 and 509 show the description, others the error page', () => {
    expect(routeError('consultarPago', detail('509'))).toEqual({
      kind: 'customError',
      message: 'Descripción del servidor.',
    });
    expect(routeError('consultarPago', detail('515'))).toEqual({ kind: 'navigate', to: '/pagoexpress/error' });
  });
});
