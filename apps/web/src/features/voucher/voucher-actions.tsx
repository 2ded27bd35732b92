import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { deferred } from '../../components/deferred';
import { useAppStore } from '../../lib/app-store';
import { fetchComprobantePdf } from './api/comprobante-pdf';
import { saveBlob } from './save-blob';

// The e-mail dialog (its form, call 8 and Radix) is not needed for the voucher to show.
const EmailVoucherModal = deferred(() => import('./email-voucher-modal').then((m) => m.EmailVoucherModal));

/** Specification §9: the voucher's PDF is saved as download.pdf. */
export const VOUCHER_FILENAME = 'download.pdf';
export const DOWNLOAD_FAILED_MESSAGE = 'No pudimos descargar tu comprobante. Vuelve a intentarlo.';

/** 'Descargar', 'Enviar por email' and 'Imprimir' (specification §2 'Voucher (success)'). */
export function VoucherActions({ idTransaccion }: { idTransaccion: string }) {
  const rut = useAppStore((state) => state.customer.rut);
  const token = useAppStore((state) => state.customer.token);
  const [emailOpen, setEmailOpen] = useState(false);
  useEffect(() => EmailVoucherModal.preload(), []);

  const download = useMutation({
    mutationFn: () => fetchComprobantePdf(token, idTransaccion),
    onSuccess: (pdf) => saveBlob(pdf, VOUCHER_FILENAME),
  });

  return (
    <div>
      <div role="group" aria-label="Tu comprobante" className="grid grid-cols-3 gap-2">
        <Tool
          icon={DOWNLOAD_ICON}
          busy={download.isPending}
          onClick={() => {
            if (!download.isPending) download.mutate();
          }}
        >
          Descargar
        </Tool>
        <Tool icon={MAIL_ICON} onClick={() => setEmailOpen(true)}>
          Enviar por email
        </Tool>
        <Tool icon={PRINT_ICON} onClick={() => window.print()}>
          Imprimir
        </Tool>
      </div>
      {/* Always in the document, so that a failed download is announced. */}
      <div role="status" aria-live="polite">
        {download.isError ? <p className="mt-2 text-sm font-medium text-danger">{DOWNLOAD_FAILED_MESSAGE}</p> : null}
      </div>
      <EmailVoucherModal open={emailOpen} onOpenChange={setEmailOpen} rut={rut} token={token} />
    </div>
  );
}

interface ToolProps {
  icon: string;
  onClick: () => void;
  busy?: boolean;
  children: ReactNode;
}

/** A compact button with its icon above the label: three fit side by side on a 390px phone. */
function Tool({ icon, onClick, busy = false, children }: ToolProps) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-busy={busy || undefined}
      className="flex min-h-16 w-full min-w-0 flex-col items-center gap-1 rounded-lg border-2 border-brand-700 bg-white px-1.5 py-2 text-center text-sm leading-tight font-semibold text-brand-700 transition-colors hover:bg-brand-50 active:bg-brand-100 aria-busy:cursor-progress"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className={`size-6 shrink-0 fill-none stroke-current ${busy ? 'animate-pulse' : ''}`.trim()}
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={icon} />
      </svg>
      {/* The icons stay in line when one label takes two lines. */}
      <span className="flex flex-1 items-center">{children}</span>
    </button>
  );
}

const DOWNLOAD_ICON = 'M12 3v12m0 0-4.5-4.5M12 15l4.5-4.5M4 17v2.5A1.5 1.5 0 0 0 5.5 21h13a1.5 1.5 0 0 0 1.5-1.5V17';
const MAIL_ICON = 'M3.5 5.5h17a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1h-17a1 1 0 0 1-1-1v-11a1 1 0 0 1 1-1Zm-.5 1 9 7 9-7';
const PRINT_ICON =
  'M6.5 9V3.5h11V9M6.5 17.5h-2a1.5 1.5 0 0 1-1.5-1.5v-5.5A1.5 1.5 0 0 1 4.5 9h15a1.5 1.5 0 0 1 1.5 1.5V16a1.5 1.5 0 0 1-1.5 1.5h-2M6.5 14h11v6.5h-11V14Z';
