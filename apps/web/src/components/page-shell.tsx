import type { ReactNode, Ref } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

export const MAIN_ID = 'contenido';

interface PageShellProps {
  children: ReactNode;
  mainRef?: Ref<HTMLElement>;
}

/** The landmarks every screen shares: header, main and footer. */
export function PageShell({ children, mainRef }: PageShellProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href={`#${MAIN_ID}`}
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800"
      >
        Saltar al contenido
      </a>
      <SiteHeader />
      <main
        id={MAIN_ID}
        ref={mainRef}
        tabIndex={-1}
        className="flex w-full flex-1 flex-col px-4 py-6 outline-none sm:px-6 sm:py-10"
      >
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
