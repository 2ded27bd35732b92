import { isFamily } from '@pago/domain/family-codes';
import type { ReactNode } from 'react';
import { matchRoutes, type Params } from 'react-router';
import { parseWebpayReturn, screenAfterReturn } from '../features/card/webpay-return';
import { StepOneArrival, StepThreeArrival, StepTwoArrival } from '../features/products/step-arrivals';
import { VerificationArrival, VoucherArrival } from '../features/voucher/voucher-arrival';
import { ROUTES, type RouteId } from '../lib/paths';

/*
 * What a screen shows before its code and its data have arrived: the heading and the words that do not depend on the
 * tab's session. The build draws it into the screen's page, so that it paints before any JavaScript runs
 * (decision 037); the app shows it while the screen's code loads. A route without one shows the loader.
 */

type Arrival = (params: Params, search: string) => ReactNode;

const ARRIVALS: Partial<Record<RouteId, Arrival>> = {
  stepOne: () => <StepOneArrival />,
  stepOneExpress: () => <StepOneArrival />,
  stepTwo: ({ category }) => (isFamily(category) ? <StepTwoArrival family={category} /> : null),
  stepThree: ({ category }) => (isFamily(category) ? <StepThreeArrival /> : null),
  successVoucher: () => <VoucherArrival />,
  // Webpay's return becomes the screen of its outcome at once: it arrives as that screen.
  webpayResult: (_params, search) => arrivalFor(screenAfterReturn(parseWebpayReturn(search), null)),
  verifyVoucher: () => <VerificationArrival />,
};

const ARRIVAL_ROUTES = (Object.keys(ARRIVALS) as RouteId[]).map((id) => ({ id, path: ROUTES[id].path, caseSensitive: true }));

/** The arrival of the screen at `url` (a path with its query), or null when it has none. */
export function arrivalFor(url: string): ReactNode {
  const query = url.indexOf('?');
  const [pathname, search] = query < 0 ? [url, ''] : [url.slice(0, query), url.slice(query)];
  const [match] = matchRoutes(ARRIVAL_ROUTES, pathname) ?? [];
  return match ? (ARRIVALS[match.route.id]?.(match.params, search) ?? null) : null;
}

export type ArrivalFor = typeof arrivalFor;
