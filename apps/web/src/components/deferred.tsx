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
    preload(): void {
      load().catch(() => {});
    },
  });
}
