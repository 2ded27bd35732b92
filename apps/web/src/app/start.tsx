import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { readRememberedRut } from '../lib/app-store';
import { keepTypedBeforeStart } from '../lib/typed-before-start';
import { ArrivalsContext } from './arrival';
import { App } from './router';
import { isHomePath, SCREEN_DRAWN_BY_BROWSER } from './shell';

/**
 * Whether #root's markup, drawn at build time (decision 037), is what this route renders first: the home with no
 * remembered RUT (the build's home has an empty field), or the frame of any other screen.
 */
function hydratable(container: HTMLElement): boolean {
  const home = isHomePath(window.location.pathname);
  switch (container.dataset['shell']) {
    case 'home':
      return home && readRememberedRut() === '';
    case 'screen':
      return !home;
    default:
      return false;
  }
}

/**
 * Once the app has committed the page: a screen's page arrives inert (scripts/prerender.mjs), so that nothing is
 * tapped while nothing listens; the home takes typing from its first paint, and the home screen reads what was typed
 * (home-page.tsx). From now on React takes every event; `data-live` says so (the end-to-end tests wait for it).
 */
function TakenOver({ onTakenOver, children }: { onTakenOver: () => void; children: ReactNode }) {
  useEffect(onTakenOver, [onTakenOver]);
  return children;
}

/**
 * Starts the app in #root: hydrates the markup the page arrived with, so that what painted before any JavaScript
 * ran stays and comes alive; otherwise (a remembered RUT, a page drawn for another route) draws it anew, which looks
 * the same and reports no mismatch. A screen's page first loads the screens' arrivals (arrivals.tsx), so that its
 * screen goes on showing what the page arrived with until its code has loaded; the home does without them.
 */
export async function startApp(container: HTMLElement): Promise<Root> {
  // Only words drawn early: a page whose arrivals failed to load starts all the same, with the loader.
  const arrivals = isHomePath(window.location.pathname) ? null : await import('./arrivals').then((m) => m.arrivalFor, () => null);
  const app = (
    <StrictMode>
      <TakenOver
        onTakenOver={() => {
          container.inert = false;
          container.dataset['live'] = '';
        }}
      >
        <ArrivalsContext value={arrivals}>
          <App />
        </ArrivalsContext>
      </TakenOver>
    </StrictMode>
  );
  if (!hydratable(container)) {
    // The home drawn anew replaces the field the member may already have typed in: keep what it holds.
    if (isHomePath(window.location.pathname)) keepTypedBeforeStart(container);
    const root = createRoot(container);
    // At once, before the page's load event: the markup it replaces must not be what the member starts typing in.
    flushSync(() => root.render(app));
    return root;
  }
  let root!: Root;
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the main thread for
  // the whole page; a tap or a key on the page hydrates what it hits at once.
  startTransition(() => {
    root = hydrateRoot(container, app, {
      onRecoverableError(error) {
        // The screen inside the frame is the browser's to draw, by design; anything else is a fault to report.
        if ((error as { digest?: unknown } | null)?.digest === SCREEN_DRAWN_BY_BROWSER) return;
        console.error(error);
      },
    });
  });
  return root;
}
