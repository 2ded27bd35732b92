import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

/**
 * Resolves once the page has painted what it arrived with (decision 037): the next frame has run. A hidden tab
 * paints no frame, so there it resolves at once.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState !== 'visible') resolve();
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

// The app's code (React, the route table, the home) downloads beside the stylesheet (the page preloads it) and is
// evaluated only after the markup has painted: the member sees the page first, then it comes alive.
void afterFirstPaint()
  .then(() => import('./app/start'))
  .then(({ startApp }) => startApp(container));
