import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

/** Longest wait for the first paint's report, in case a browser never sends one. */
const FIRST_PAINT_WAIT_MS = 3000;

/**
 * Resolves once the browser reports the page's first contentful paint (decision 037): the markup the page arrived
 * with is on screen. A hidden tab paints nothing, so there it resolves at once.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const observable = typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes.includes('paint');
    if (document.visibilityState !== 'visible' || !observable) {
      resolve();
      return;
    }
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
    setTimeout(resolve, FIRST_PAINT_WAIT_MS);
  });
}

/**
 * The code a screen's page runs on arrival besides the app (its screen, the screens' arrivals), which the build lists
 * on #root (scripts/prerender.mjs): fetched beside the app rather than after it has started.
 */
function preloadScreenCode(root: HTMLElement) {
  for (const file of root.dataset['code']?.split(' ').filter(Boolean) ?? []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = `/${file}`;
    document.head.append(link);
  }
}

// Nothing is fetched or evaluated before the markup has painted: the member sees the page first, then it comes alive.
void afterFirstPaint()
  .then(() => {
    preloadScreenCode(container);
    return import('./app/start');
  })
  .then(({ startApp }) => startApp(container));
