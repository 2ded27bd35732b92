import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router';
import { ROUTES, type Access, type RouteId } from '../lib/paths';
import { AccessGuard, CategoryGuard } from './guards';
import { QueryProvider } from './providers';
import { HOME_ROUTE_IDS, type HomeRouteId } from './home-route-ids';

type Screen = LazyExoticComponent<ComponentType>;

// Each screen is its own chunk: opening the home downloads the home and nothing of the payment steps.
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Screen {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}

const StepOnePage = screen(() => import('../features/products/step-one-page'), (m) => m.StepOnePage);
const SecurityFactorPage = screen(
  () => import('../features/own-account/security-factor-page'),
  (m) => m.SecurityFactorPage,
);
const InfoMessagePage = screen(() => import('../features/errors/info-message-page'), (m) => m.InfoMessagePage);
const NotFoundPage = screen(() => import('../features/errors/not-found-page'), (m) => m.NotFoundPage);

/** The screen of every route of lib/paths.ts but the home's; a route without a screen does not compile. */
const SCREENS: Record<Exclude<RouteId, HomeRouteId>, Screen> = {
  stepOneExpress: StepOnePage,
  stepOne: StepOnePage,
  maintenance: screen(() => import('../features/errors/maintenance-page'), (m) => m.MaintenancePage),
  cierre: screen(() => import('../features/errors/cierre-page'), (m) => m.CierrePage),
  error: screen(() => import('../features/errors/error-page'), (m) => m.ErrorPage),
  customError: screen(() => import('../features/errors/custom-error-page'), (m) => m.CustomErrorPage),
  errorLogin: screen(() => import('../features/own-account/error-login-page'), (m) => m.ErrorLoginPage),
  successVoucher: screen(() => import('../features/voucher/success-voucher-page'), (m) => m.SuccessVoucherPage),
  cancelVoucher: screen(() => import('../features/card/cancel-voucher-page'), (m) => m.CancelVoucherPage),
  webpayResult: screen(() => import('../features/card/webpay-result-page'), (m) => m.WebpayResultPage),
  webpayFinal: screen(() => import('../features/card/webpay-final-page'), (m) => m.WebpayFinalPage),
  stepTwo: screen(() => import('../features/products/step-two-page'), (m) => m.StepTwoPage),
  stepThree: screen(() => import('../features/products/step-three-page'), (m) => m.StepThreePage),
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

const ROUTE_IDS = (Object.keys(ROUTES) as RouteId[]).filter(
  (id): id is Exclude<RouteId, HomeRouteId> => !(HOME_ROUTE_IDS as readonly RouteId[]).includes(id),
);

function screenRoutes(access: Access, withCategory: boolean) {
  return ROUTE_IDS.filter((id) => {
    const route = ROUTES[id];
    return route.access === access && 'category' in route === withCategory;
  }).map((id) => {
    const Screen = SCREENS[id];
    // Case matters: /pagoexpress/ErrorLogin is a screen, /pagoexpress/errorlogin is not.
    return <Route key={id} path={ROUTES[id].path} caseSensitive element={<Screen />} />;
  });
}

/**
 * Every route of specification §2 but the home. Loaded on leaving the home (or on opening another screen
 * directly), so the home's first load carries neither this table nor TanStack Query.
 */
export function OtherRoutes() {
  return (
    <QueryProvider>
      <Routes>
        {screenRoutes('both', false)}
        <Route element={<AccessGuard access="unauthenticated" />}>{screenRoutes('unauthenticated', false)}</Route>
        <Route element={<AccessGuard access="authenticated" />}>{screenRoutes('authenticated', false)}</Route>
        {/* The family is checked before the session, so a wrong category is 'not found' for everybody. */}
        <Route element={<CategoryGuard />}>
          <Route element={<AccessGuard access="authenticated" />}>{screenRoutes('authenticated', true)}</Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </QueryProvider>
  );
}
