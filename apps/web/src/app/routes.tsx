import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { HomePage } from '../features/home/home-page';
import { ROUTES } from '../lib/paths';
import { HOME_ROUTE_IDS } from './home-route-ids';
import { RootLayout } from './root-layout';

// The home is the first screen of nearly every visit, so it is part of the first load rather than a second
// request; every other screen is its own chunk, behind this one.
const OtherRoutes = lazy(() => import('./other-routes').then((m) => ({ default: m.OtherRoutes })));

/** Every route of specification §2: the home here, the others in other-routes.tsx. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {HOME_ROUTE_IDS.map((id) => (
          <Route key={id} path={ROUTES[id].path} caseSensitive element={<HomePage />} />
        ))}
        <Route path="*" element={<OtherRoutes />} />
      </Route>
    </Routes>
  );
}
