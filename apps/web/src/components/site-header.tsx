import { PRODUCT_NAME } from '../lib/env';

export function SiteHeader() {
  return (
    <header className="bg-brand-800 text-white shadow-sm">
      <div className="mx-auto flex min-h-16 w-full max-w-5xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
            <rect width="32" height="32" rx="8" className="fill-white/15" />
            <path d="M16 6 7 10.5V13h18v-2.5L16 6Zm-7 9v8h2.5v-8H9Zm5.5 0v8h3v-8h-3Zm6 0v8H23v-8h-2.5ZM7 24.5V27h18v-2.5H7Z" className="fill-white" />
          </svg>
          <p className="truncate text-lg font-bold tracking-tight">{PRODUCT_NAME}</p>
        </div>
        <p className="shrink-0 rounded-full bg-white/12 px-3 py-1 text-sm font-semibold">Pago Online</p>
      </div>
    </header>
  );
}
