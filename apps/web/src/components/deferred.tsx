import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog a screen may never open, as a component whose code is fetched on its first opening (or by `preload`, once
 * the screen has painted) instead of before the screen can paint. Once opened it stays mounted, so closing behaves
 * as the dialog's own.
 */
export function deferred<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>) {
  const Lazy = lazy(() => load().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
  function Deferred(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Object.assign(Deferred, {
    /** Fetches the dialog's code once the screen has painted and the browser is idle, so as not to hold it back. */
    preload(): void {
      whenPaintedAndIdle(() => {
        load().catch(() => {});
      });
    },
  });
}

// An effect alone is not enough: React may run a screen's effects before the browser paints the screen. A task
// queued from an animation frame runs after that frame's paint; an idle callback then waits for the main thread to
// be free (without one, as in Safari, the task runs after the paint).
function whenPaintedAndIdle(task: () => void): void {
  const whenIdle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(task) : task());
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(whenIdle, 0));
  else setTimeout(whenIdle, 0);
}
