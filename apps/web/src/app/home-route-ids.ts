import type { RouteId } from '../lib/paths';

/** The routes of the home, kept in the first load; every other route is in other-routes.tsx. */
export const HOME_ROUTE_IDS = ['home', 'homeExpress', 'homeOnline'] as const satisfies readonly RouteId[];
export type HomeRouteId = (typeof HOME_ROUTE_IDS)[number];
