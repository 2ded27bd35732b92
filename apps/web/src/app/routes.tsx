import { Route, Routes } from 'react-router';
import { HomePage } from '../features/home/home-page';
import { ROUTES, type Access, type RouteId } from '../lib/paths';
import { AccessGuard, CategoryGuard, PaidGuard } from './guards';
import { HOME_ROUTE_IDS, type HomeRouteId } from './home-route-ids';
import { RootLayout } from './root-layout';
import { NotFoundPage, SCREENS } from './screens';

const SCREEN_ROUTE_IDS = (Object.keys(ROUTES) as RouteId[]).filter(
  (id): id is Exclude<RouteId, HomeRouteId> => !(HOME_ROUTE_IDS as readonly RouteId[]).includes(id),
);

function screenRoutes(access: Access, withCategory: boolean) {
  return SCREEN_ROUTE_IDS.filter((id) => {
    const route = ROUTES[id];
    return route.access === access && 'category' in route === withCategory;
  }).map((id) => {
    const Screen = SCREENS[id];
    // Case matters: /pagoexpress/ErrorLogin is a screen, /pagoexpress/errorlogin is not.
    return <Route key={id} path={ROUTES[id].path} caseSensitive element={<Screen />} />;
  });
}

/**
 * Every route of specification §2. The home is part of the first load, since nearly every visit starts there; the
 * table of the other routes is too, so that a screen opened directly (a reload, a link) fetches its own code at once
 * rather than after a chunk holding the table.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {HOME_ROUTE_IDS.map((id) => (
          <Route key={id} path={ROUTES[id].path} caseSensitive element={<HomePage />} />
        ))}
        {screenRoutes('both', false)}
        <Route element={<AccessGuard access="unauthenticated" />}>{screenRoutes('unauthenticated', false)}</Route>
        <Route element={<AccessGuard access="authenticated" />}>{screenRoutes('authenticated', false)}</Route>
        {/* The family is checked before the session, so a wrong category is 'not found' for everybody. */}
        <Route element={<CategoryGuard />}>
          <Route element={<AccessGuard access="authenticated" />}>
            <Route element={<PaidGuard />}>{screenRoutes('authenticated', true)}</Route>
          </Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
