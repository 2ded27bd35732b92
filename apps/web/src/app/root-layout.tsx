import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { pageName, track } from '../lib/analytics';
import { PageShell } from '../components/page-shell';
import { useHoldAfterWebpay } from '../features/card/hold-after-webpay';
import { ScreenArrival } from './arrival';
import { ScreenErrorBoundary } from './screen-error-boundary';

export function RootLayout() {
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const firstRender = useRef(true);
  useHoldAfterWebpay();

  useEffect(() => {
    track({ event: 'page_view', page: pageName(pathname) });
  }, [pathname]);

  // After a navigation, start reading (and scrolling) at the new screen, not where the last one ended.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <PageShell mainRef={mainRef}>
      {/* A new boundary per path: a screen that failed does not keep the next one from showing. */}
      <ScreenErrorBoundary key={pathname}>
        {/* A screen's code is fetched on its first visit; meanwhile it shows what it arrives with. */}
        <Suspense fallback={<ScreenArrival />}>
          <Outlet />
        </Suspense>
      </ScreenErrorBoundary>
    </PageShell>
  );
}
