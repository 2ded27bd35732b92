import { matchRoutes } from 'react-router';
import { ROUTES } from '../lib/paths';
import { HOME_ROUTE_IDS } from './home-route-ids';

/*
 * What the build's prerendered pages (src/prerender/) and the browser's entry (main.tsx) agree on. Every page's
 * HTML holds the site's frame (header, main, footer) drawn at build time; the home's holds the home itself. The
 * browser hydrates that markup rather than drawing it again (decision 037).
 */

/** `data-shell` of #root: which prerendered page the server sent. */
export type ShellKind = 'home' | 'screen';

/**
 * The digest of the boundary the build leaves to the browser: on a screen's page, the screen depends on the tab's
 * session, so the prerender stops at the frame and the browser draws the screen. React reports that boundary as a
 * recoverable error when it hydrates; with this digest it is the expected case, not a fault.
 */
export const SCREEN_DRAWN_BY_BROWSER = 'pago-screen-drawn-by-browser';

const HOME_ROUTES = HOME_ROUTE_IDS.map((id) => ({ path: ROUTES[id].path, caseSensitive: true }));

/** Whether `pathname` is one of the home's routes, matched as the route table matches it. */
export function isHomePath(pathname: string): boolean {
  return (matchRoutes(HOME_ROUTES, pathname) ?? []).length > 0;
}
