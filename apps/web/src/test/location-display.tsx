import { useLocation } from 'react-router';

/** Test helper: shows where the router is, so a test can assert on redirects and navigations. */
export function LocationDisplay() {
  const { pathname } = useLocation();
  return <div data-testid="location">{pathname}</div>;
}
