import { StrictMode, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { Route, Routes, StaticRouter } from 'react-router';
import { ArrivalsContext } from '../app/arrival';
import { arrivalFor } from '../app/arrivals';
import { AppRoutes } from '../app/routes';
import { RootLayout } from '../app/root-layout';
import { SCREEN_DRAWN_BY_BROWSER, type ShellKind } from '../app/shell';

/*
 * The build's server-side entry (vite build --ssr; scripts/prerender.mjs calls it): the markup every page arrives
 * with, so the browser paints before any JavaScript runs (decision 037).
 */

class DrawnByBrowser extends Error {}

/** Where a screen goes: it depends on the tab's session (sessionStorage), which only the browser has. */
function ScreenDrawnByBrowser(): ReactNode {
  throw new DrawnByBrowser('the screen is drawn by the browser');
}

/**
 * The markup of #root for `url` (a path with its query): the home in full for 'home', otherwise the site's frame
 * around what stands for the screen until its code and data arrive, its arrival (app/arrivals.tsx) or the loader.
 * The same component tree as the browser's (main.tsx), so hydration finds what it renders.
 */
export async function renderShell(url: string, kind: ShellKind): Promise<string> {
  const routes =
    kind === 'home' ? (
      <AppRoutes />
    ) : (
      <Routes>
        <Route element={<RootLayout />}>
          <Route path="*" element={<ScreenDrawnByBrowser />} />
        </Route>
      </Routes>
    );
  const faults: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <ArrivalsContext value={arrivalFor}>
        <StaticRouter location={url}>{routes}</StaticRouter>
      </ArrivalsContext>
    </StrictMode>,
    {
      onError(error) {
        if (error instanceof DrawnByBrowser) return SCREEN_DRAWN_BY_BROWSER;
        faults.push(error);
        return undefined;
      },
    },
  );
  const html = await new Response(prelude).text();
  if (faults.length > 0) throw new AggregateError(faults, `prerendering ${url} failed`);
  return html;
}

// What scripts/prerender.mjs needs to name each route's page.
export { HOME_ROUTE_IDS } from '../app/home-route-ids';
export { ROUTES } from '../lib/paths';
export { FAMILIES } from '@pago/domain/family-codes';
export { ID_TRANSACCION, RETURN_ESTADOS } from '../features/card/webpay-return';
