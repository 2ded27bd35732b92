import { CONSULTAR_PARAMETROS_PATH, CONSULTAR_PARAMETROS_RESPONSE } from '@pago/domain/call-parametros';
import { describe, expect, it } from 'vitest';
import { CONSULTAR_PARAMETROS, paths, ROUTES } from './paths';

describe('paths', () => {
  it('holds every route of specification §2, exactly spelled, with its access', () => {
    const byAccess = (access: string) =>
      Object.values(ROUTES)
        .filter((route) => route.access === access)
        .map((route) => route.path)
        .sort();
    expect(byAccess('both')).toEqual(
      [
        '/',
        '/pagoexpress',
        '/pagoonline',
        '/pagoexpress/stepone',
        '/pagoonline/stepone',
        '/pagoexpress/maintenance',
        '/pagoexpress/cierre',
        '/pagoexpress/error',
        '/pagoexpress/customError',
        '/pagoexpress/ErrorLogin',
        '/pagoexpress/successvoucher/:idtrx',
        '/pagoexpress/cancelvoucher/:idtrx',
        '/pagoexpress/webpayresult',
        '/pagoexpress/webpayfinal',
        // Beyond the specification: a voucher's public proof.
        '/comprobante/verificar/:codigo',
      ].sort(),
    );
    expect(byAccess('authenticated')).toEqual(
      [
        '/pagoexpress/steptwo/:category',
        '/pagoexpress/stepthree/:category',
        '/pagoexpress/:category/coopmethodpay',
        '/pagoexpress/:category/webpaymethodpay',
        '/pagoexpress/:category/SecurityFactor',
        '/pagoexpress/:category/coopmethodpaychallenge',
        '/pagoexpress/bloquedUser',
        '/pagoexpress/cancelMessage',
        '/pagoexpress/InsufficientFunds',
      ].sort(),
    );
    expect(byAccess('unauthenticated')).toEqual(
      ['/pagoexpress/SecurityFactor', '/pagoexpress/infomessage', '/pagoexpress/informativemessage'].sort(),
    );
  });

  it('builds the paths with parameters', () => {
    expect(paths.stepTwo('AH')).toBe('/pagoexpress/steptwo/AH');
    expect(paths.methodPay('PC')).toBe('/pagoexpress/PC/coopmethodpay');
    expect(paths.methodPayChallenge('TC')).toBe('/pagoexpress/TC/coopmethodpaychallenge');
    expect(paths.webpayMethodPay('HI')).toBe('/pagoexpress/HI/webpaymethodpay');
    expect(paths.securityFactor('CP')).toBe('/pagoexpress/CP/SecurityFactor');
    expect(paths.successVoucher('a b/c')).toBe('/pagoexpress/successvoucher/a%20b%2Fc');
  });

  it("repeats the parameter call's constants of @pago/domain exactly", () => {
    expect(CONSULTAR_PARAMETROS).toEqual({ path: CONSULTAR_PARAMETROS_PATH, response: CONSULTAR_PARAMETROS_RESPONSE });
  });
});
