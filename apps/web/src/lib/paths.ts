import { generatePath } from 'react-router';
import type { Family } from '@pago/domain/families';
import { PRODUCT_SLUG } from './env';

/** Who may open a screen (specification §2). */
export type Access = 'both' | 'authenticated' | 'unauthenticated';

interface RouteDef {
  readonly path: string;
  readonly access: Access;
  /** The path holds :category, which must be one of the product families. */
  readonly category?: true;
}

/**
 * Every screen of specification §2, in one place. Paths are case-sensitive: /pagoexpress/ErrorLogin is a
 * screen, /pagoexpress/errorlogin is not.
 */
export const ROUTES = {
  home: { path: '/', access: 'both' },
  homeExpress: { path: '/pagoexpress', access: 'both' },
  homeOnline: { path: '/pagoonline', access: 'both' },
  stepOneExpress: { path: '/pagoexpress/stepone', access: 'both' },
  stepOne: { path: '/pagoonline/stepone', access: 'both' },
  maintenance: { path: '/pagoexpress/maintenance', access: 'both' },
  cierre: { path: '/pagoexpress/cierre', access: 'both' },
  error: { path: '/pagoexpress/error', access: 'both' },
  customError: { path: '/pagoexpress/customError', access: 'both' },
  errorLogin: { path: '/pagoexpress/ErrorLogin', access: 'both' },
  successVoucher: { path: '/pagoexpress/successvoucher/:idtrx', access: 'both' },
  cancelVoucher: { path: '/pagoexpress/cancelvoucher/:idtrx', access: 'both' },
  webpayResult: { path: '/pagoexpress/webpayresult', access: 'both' },
  webpayFinal: { path: '/pagoexpress/webpayfinal', access: 'both' },
  // Beyond the specification: a voucher's public proof, for whoever holds its code.
  verifyVoucher: { path: '/comprobante/verificar/:codigo', access: 'both' },

  stepTwo: { path: '/pagoexpress/steptwo/:category', access: 'authenticated', category: true },
  stepThree: { path: '/pagoexpress/stepthree/:category', access: 'authenticated', category: true },
  methodPay: { path: `/pagoexpress/:category/${PRODUCT_SLUG}methodpay`, access: 'authenticated', category: true },
  webpayMethodPay: { path: '/pagoexpress/:category/webpaymethodpay', access: 'authenticated', category: true },
  securityFactor: { path: '/pagoexpress/:category/SecurityFactor', access: 'authenticated', category: true },
  methodPayChallenge: {
    path: `/pagoexpress/:category/${PRODUCT_SLUG}methodpaychallenge`,
    access: 'authenticated',
    category: true,
  },
  blockedUser: { path: '/pagoexpress/bloquedUser', access: 'authenticated' },
  cancelMessage: { path: '/pagoexpress/cancelMessage', access: 'authenticated' },
  insufficientFunds: { path: '/pagoexpress/InsufficientFunds', access: 'authenticated' },

  securityFactorGuest: { path: '/pagoexpress/SecurityFactor', access: 'unauthenticated' },
  infoMessage: { path: '/pagoexpress/infomessage', access: 'unauthenticated' },
  informativeMessage: { path: '/pagoexpress/informativemessage', access: 'unauthenticated' },
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof ROUTES;

const withCategory = (path: string) => (category: Family) => generatePath(path, { category });
const withIdTrx = (path: string) => (idtrx: string) => generatePath(path, { idtrx });

/** Links and redirects: build URLs from here, never by hand. */
export const paths = {
  home: ROUTES.home.path,
  stepOne: ROUTES.stepOne.path,
  maintenance: ROUTES.maintenance.path,
  cierre: ROUTES.cierre.path,
  error: ROUTES.error.path,
  customError: ROUTES.customError.path,
  errorLogin: ROUTES.errorLogin.path,
  successVoucher: withIdTrx(ROUTES.successVoucher.path),
  cancelVoucher: withIdTrx(ROUTES.cancelVoucher.path),
  webpayResult: ROUTES.webpayResult.path,
  webpayFinal: ROUTES.webpayFinal.path,
  stepTwo: withCategory(ROUTES.stepTwo.path),
  stepThree: withCategory(ROUTES.stepThree.path),
  methodPay: withCategory(ROUTES.methodPay.path),
  webpayMethodPay: withCategory(ROUTES.webpayMethodPay.path),
  securityFactor: withCategory(ROUTES.securityFactor.path),
  methodPayChallenge: withCategory(ROUTES.methodPayChallenge.path),
  blockedUser: ROUTES.blockedUser.path,
  cancelMessage: ROUTES.cancelMessage.path,
  insufficientFunds: ROUTES.insufficientFunds.path,
  securityFactorGuest: ROUTES.securityFactorGuest.path,
  infoMessage: ROUTES.infoMessage.path,
  informativeMessage: ROUTES.informativeMessage.path,
} as const;

/** Default method of payment (specification §3, 'Other state'): the last segment of the own-account route. */
export const DEFAULT_METHOD_PAY = `${PRODUCT_SLUG}methodpay`;
/** The card provider's method of payment: the last segment of its route. */
export const WEBPAY_METHOD_PAY = 'webpaymethodpay';

/**
 * The home's one call (specification §7.1). These constants repeat @pago/domain/call-parametros (a test checks
 * they agree) because importing that module would bring zod into the home's chunk.
 */
export const CONSULTAR_PARAMETROS = {
  path: '/prod/parametro/consultar',
  response: 'consultarParametrosResponse',
} as const;
