import { PRODUCT_NAME } from '../lib/env';

export function SiteFooter() {
  return (
    <footer className="border-t border-line bg-white">
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-2 px-4 py-5 text-sm text-muted sm:px-6">
        <p className="flex items-start gap-2">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 fill-brand-700">
            <path d="M10 1.5 3 4.3v5c0 4.3 3 8.1 7 9.2 4-1.1 7-4.9 7-9.2v-5L10 1.5Zm-1.2 12L5.6 10.3l1.3-1.3 1.9 1.9 4.3-4.3 1.3 1.3-5.6 5.6Z" />
          </svg>
          <span>
            Sitio seguro. Nunca te pediremos tu clave de internet ni tus coordenadas por correo electrónico,
            teléfono o mensaje de texto.
          </span>
        </p>
        {/* The build draws the year it ran in (decision 037); the browser's own year replaces it without a warning. */}
        <p suppressHydrationWarning>
          © {new Date().getFullYear()} {PRODUCT_NAME}
        </p>
      </div>
    </footer>
  );
}
