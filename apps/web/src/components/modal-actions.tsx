import type { ReactNode } from 'react';

/** The dialog's buttons: stacked on a phone (main action first), in a row on wider screens (main action last). */
export function ModalActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{children}</div>;
}
