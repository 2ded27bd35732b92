import { VOUCHER_TEXTS } from '@pago/domain/voucher-texts';
import { formatVerificationCode, verificationPath } from '@pago/domain/voucher-verification';
import { Fragment } from 'react';
import { useQrImage } from '../../lib/use-qr-image';

/**
 * The voucher's proof: a QR code of its public page, the code to type or read out, and the page's address (printed
 * too). The code has a line of its own, the card's full width, and may break only between its groups.
 */
export function VoucherVerification({ code }: { code: string }) {
  const url = new URL(verificationPath(code), window.location.origin).toString();
  const image = useQrImage(url);
  const groups = formatVerificationCode(code).split('-');
  return (
    <section aria-labelledby="voucher-verification" className="rounded-xl border border-line px-4 py-4 text-ink">
      <div className="flex items-center gap-4">
        {image ? (
          <img src={image} alt="Código QR para verificar este comprobante" width={112} height={112} className="size-28 shrink-0" />
        ) : (
          // Its place, kept while the code is drawn, so that nothing moves when it appears.
          <div className="size-28 shrink-0" />
        )}
        <div className="min-w-0">
          <h2 id="voucher-verification" className="text-base font-semibold">
            {VOUCHER_TEXTS.verifyTitle}
          </h2>
          <p className="mt-1 text-sm text-muted">{VOUCHER_TEXTS.verifyHow}</p>
        </div>
      </div>
      <p className="mt-3 text-sm text-muted">{VOUCHER_TEXTS.verificationCode}</p>
      <p className="text-base font-semibold tracking-wide tabular-nums sm:text-lg">
        {groups.map((group, index) => (
          <Fragment key={index}>
            {index > 0 ? (
              <>
                <wbr />-
              </>
            ) : null}
            <span className="whitespace-nowrap">{group}</span>
          </Fragment>
        ))}
      </p>
      <a href={url} className="mt-1 block text-sm font-semibold break-all text-brand-700 underline-offset-4 hover:underline">
        {url}
      </a>
    </section>
  );
}
