import type { ReactNode, Ref } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

export const MAIN_ID = 'contenido';

interface PageShellProps {
  children: ReactNode;
  mainRef?: Ref<HTMLElement>;
}

/**
 * The landmarks every screen shares: header, main and footer. The header and main fill at least the viewport, so the
 * footer always starts at the fold: a screen whose loader (a lazy chunk, a call) gives way to content taller than
 * the viewport then pushes nothing visible down. With the footer at the bottom of the viewport instead, that swap
 * moved it off screen, a layout shift (Lighthouse CLS 0.08 on step 1 and the voucher). `svh`, the viewport with the
 * mobile browser's bars shown, does not change as they slide in and out, so neither does the layout.
 */
export function PageShell({ children, mainRef }: PageShellProps) {
  return (
    <div>
      <a
        href={`#${MAIN_ID}`}
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-brand-800"
      >
        Saltar al contenido
      </a>
      <div className="flex min-h-svh flex-col">
        <SiteHeader />
        <main
          id={MAIN_ID}
          ref={mainRef}
          tabIndex={-1}
          className="flex w-full flex-1 flex-col px-4 py-6 outline-none sm:px-6 sm:py-10"
        >
          {children}
        </main>
      </div>
      <SiteFooter />
    </div>
  );
}
