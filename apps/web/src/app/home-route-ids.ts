import type { RouteId } from '../lib/paths';

/** The routes of the home, kept in the first load; every other screen is a chunk of its own (screens.tsx). */
export const HOME_ROUTE_IDS = ['home', 'homeExpress', 'homeOnline'] as const satisfies readonly RouteId[];
export type HomeRouteId = (typeof HOME_ROUTE_IDS)[number];
