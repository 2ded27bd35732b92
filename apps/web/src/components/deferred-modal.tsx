import { lazy, Suspense, useState } from 'react';
import type { ModalProps } from './modal';

const Modal = lazy(() => import('./modal').then((m) => ({ default: m.Modal })));

/** Fetches the dialog's code (Radix, ~14 KB) ahead of its first opening, off the screen's critical path. */
export function preloadModal(): void {
  import('./modal').catch(() => {});
}

/**
 * The Modal, for a screen that may never open it: Radix is fetched on the first opening (or by preloadModal once the
 * screen has painted) instead of before the screen can paint. Once opened it stays mounted, so closing animates and
 * gives focus back as the Modal does. Children must not use ModalClose (it is Radix's own).
 */
export function DeferredModal(props: ModalProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}
