import type { Family } from '@pago/domain/families';
import { useId, useMemo } from 'react';
import { ButtonLink } from '../../components/button';
import { PRODUCT_APP_STORE_URL, PRODUCT_NAME, PRODUCT_PLAY_STORE_URL } from '../../lib/env';
import { paths } from '../../lib/paths';
import { qrImage } from '../../lib/qr-image';
import { OTHER_METHOD_LABEL, PASS_NAME } from './factors';

export const APP_DOWNLOAD_HEADING = `Descarga la app ${PRODUCT_NAME}`;

const STORES = [
  {
    name: 'App Store',
    href: PRODUCT_APP_STORE_URL,
    // An apple.
    icon: 'M16.4 12.6c0-2.2 1.8-3.2 1.9-3.3-1-1.5-2.6-1.7-3.2-1.7-1.4-.1-2.7.8-3.3.8-.7 0-1.7-.8-2.9-.8-1.5 0-2.9.9-3.6 2.2-1.6 2.7-.4 6.7 1.1 8.9.8 1.1 1.7 2.3 2.8 2.2 1.1 0 1.6-.7 2.9-.7 1.4 0 1.8.7 2.9.7 1.2 0 2-1.1 2.7-2.2.9-1.2 1.2-2.5 1.2-2.5s-2.5-1-2.5-3.6ZM14.2 6c.6-.7 1-1.7.9-2.7-.9 0-1.9.6-2.6 1.3-.6.6-1.1 1.6-.9 2.6 1 .1 2-.5 2.6-1.2Z',
  },
  {
    name: 'Google Play',
    href: PRODUCT_PLAY_STORE_URL,
    // A play triangle.
    icon: 'M5 3.5v17a1 1 0 0 0 1.5.9l14-8.5a1 1 0 0 0 0-1.8l-14-8.5A1 1 0 0 0 5 3.5Z',
  },
] as const;

/**
 * Specification §2 'Security factor screen': a payer without a second factor cannot authorise; the page says how to
 * get one, with each store's link and its QR code, for a member on a desktop to scan with their phone.
 */
export function AppDownloadPanel({ category }: { category: Family }) {
  const headingId = useId();
  const codes = useMemo(() => STORES.map((store) => qrImage(store.href)), []);
  return (
    <section aria-labelledby={headingId} className="mt-6">
      <h2 id={headingId} className="text-lg font-semibold text-ink">
        {APP_DOWNLOAD_HEADING}
      </h2>
      <p className="mt-2 text-sm text-muted sm:text-base">
        {`Para autorizar pagos desde tu Cuenta Vista necesitas un segundo factor: el autorizador móvil ${PASS_NAME} o una tarjeta de coordenadas. Descarga la app ${PRODUCT_NAME}, activa ${PASS_NAME} y vuelve a realizar tu pago.`}
      </p>
      <ul className="mt-5 grid gap-3 sm:grid-cols-2">
        {STORES.map((store, index) => (
          <li key={store.name} className="flex flex-col items-center gap-3 rounded-xl border border-line bg-white p-4">
            <img src={codes[index]} alt={`Código QR de ${PRODUCT_NAME} en ${store.name}`} width={132} height={132} className="size-33" />
            <a
              href={store.href}
              target="_blank"
              rel="noopener noreferrer"
              className="flex min-h-14 w-full items-center gap-3 rounded-xl border-2 border-line bg-white px-4 py-2.5 font-semibold text-ink transition-colors hover:border-brand-700 hover:bg-brand-50"
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7 shrink-0 fill-current text-brand-700">
                <path d={store.icon} />
              </svg>
              <span className="min-w-0 leading-tight">
                <span className="block text-xs font-normal text-muted">Descargar en</span>
                {store.name}
                <span className="sr-only"> (se abre en una pestaña nueva)</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
      <div className="mt-6 flex flex-col gap-3">
        {/* Without a factor the checking account cannot pay today: another method can. */}
        <ButtonLink to={paths.stepThree(category)}>{OTHER_METHOD_LABEL}</ButtonLink>
        <ButtonLink to={paths.home} variant="secondary">
          Ir al Home
        </ButtonLink>
      </div>
    </section>
  );
}
