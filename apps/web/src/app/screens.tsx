import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { startVoucherCall } from '../features/voucher/api/consultar-pago-start';
import type { RouteId } from '../lib/paths';
import type { HomeRouteId } from './home-route-ids';

type Screen = LazyExoticComponent<ComponentType>;

const loadQueryProvider = () => import('./providers').then((m) => m.QueryProvider);

/**
 * Each screen is its own chunk, fetched when its route is first rendered: opening the home downloads nothing of
 * the payment steps. A screen with server state (TanStack Query) fetches the query provider beside its own code,
 * in parallel, so the other screens and the home do without it.
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType, serverState = false): Screen {
  if (!serverState) return lazy(() => load().then((module) => ({ default: pick(module) })));
  return lazy(async () => {
    const [module, QueryProvider] = await Promise.all([load(), loadQueryProvider()]);
    const Content = pick(module);
    return {
      default: function WithServerState() {
        return (
          <QueryProvider>
            <Content />
          </QueryProvider>
        );
      },
    };
  });
}

const StepOnePage = screen(() => import('../features/products/step-one-page'), (m) => m.StepOnePage);
const SecurityFactorPage = screen(
  () => import('../features/own-account/security-factor-page'),
  (m) => m.SecurityFactorPage,
);
const InfoMessagePage = screen(() => import('../features/errors/info-message-page'), (m) => m.InfoMessagePage);
export const NotFoundPage = screen(() => import('../features/errors/not-found-page'), (m) => m.NotFoundPage);

/** The screen of every route of lib/paths.ts but the home's; a route without a screen does not compile. */
export const SCREENS: Record<Exclude<RouteId, HomeRouteId>, Screen> = {
  stepOneExpress: StepOnePage,
  stepOne: StepOnePage,
  maintenance: screen(() => import('../features/errors/maintenance-page'), (m) => m.MaintenancePage),
  cierre: screen(() => import('../features/errors/cierre-page'), (m) => m.CierrePage),
  error: screen(() => import('../features/errors/error-page'), (m) => m.ErrorPage),
  customError: screen(() => import('../features/errors/custom-error-page'), (m) => m.CustomErrorPage),
  errorLogin: screen(() => import('../features/own-account/error-login-page'), (m) => m.ErrorLoginPage),
  successVoucher: screen(
    () => {
      // The voucher's text waits for call 7 more than for its code: both are fetched at once.
      startVoucherCall();
      return import('../features/voucher/success-voucher-page');
    },
    (m) => m.SuccessVoucherPage,
    true,
  ),
  cancelVoucher: screen(() => import('../features/card/cancel-voucher-page'), (m) => m.CancelVoucherPage),
  webpayResult: screen(() => import('../features/card/webpay-result-page'), (m) => m.WebpayResultPage),
  verifyVoucher: screen(() => import('../features/voucher/verify-voucher-page'), (m) => m.VerifyVoucherPage),
  webpayFinal: screen(() => import('../features/card/webpay-final-page'), (m) => m.WebpayFinalPage),
  stepTwo: screen(() => import('../features/products/step-two-page'), (m) => m.StepTwoPage),
  stepThree: screen(() => import('../features/products/step-three-page'), (m) => m.StepThreePage, true),
  methodPay: screen(() => import('../features/own-account/method-pay-page'), (m) => m.MethodPayPage),
  webpayMethodPay: screen(() => import('../features/card/webpay-method-pay-page'), (m) => m.WebpayMethodPayPage),
  securityFactor: SecurityFactorPage,
  methodPayChallenge: screen(
    () => import('../features/own-account/method-pay-challenge-page'),
    (m) => m.MethodPayChallengePage,
  ),
  blockedUser: screen(() => import('../features/own-account/blocked-user-page'), (m) => m.BlockedUserPage),
  cancelMessage: screen(() => import('../features/card/cancel-message-page'), (m) => m.CancelMessagePage),
  insufficientFunds: screen(
    () => import('../features/own-account/insufficient-funds-page'),
    (m) => m.InsufficientFundsPage,
  ),
  securityFactorGuest: SecurityFactorPage,
  infoMessage: InfoMessagePage,
  informativeMessage: InfoMessagePage,
};
