import { formatVerificationCode, verificationPath } from '@pago/domain/voucher-verification';
import { useMemo } from 'react';
import { qrImage } from '../../lib/qr-image';

/** The voucher's proof: a QR code of its public page, the code to type and the page's address (printed too). */
export function VoucherVerification({ code }: { code: string }) {
  const url = new URL(verificationPath(code), window.location.origin).toString();
  const image = useMemo(() => qrImage(url), [url]);
  return (
    <section aria-labelledby="voucher-verification" className="flex flex-col gap-4 rounded-xl border border-line px-4 py-4 text-ink sm:flex-row sm:items-center">
      <img src={image} alt="Código QR para verificar este comprobante" width={112} height={112} className="size-28 shrink-0" />
      <div className="min-w-0">
        <h2 id="voucher-verification" className="text-base font-semibold">
          Verifica este comprobante
        </h2>
        <p className="mt-1 text-sm text-muted">Código de verificación</p>
        <p className="font-semibold tracking-wide whitespace-nowrap">{formatVerificationCode(code)}</p>
        <a href={url} className="mt-1 block text-sm font-semibold break-all text-brand-700 underline-offset-4 hover:underline">
          {url}
        </a>
      </div>
    </section>
  );
}
