import type { Family } from '@pago/domain/families';
import { useId } from 'react';
import { Button } from '../../components/button';
import { Countdown } from '../../components/countdown';
import { Loader } from '../../components/loader';
import type { Parties } from './api/cuenta-vista';
import { PASS_NAME } from './factors';
import { PanelFailure } from './panel-failure';
import { useAuthoriser } from './use-authoriser';

export const AUTHORISER_HEADING = `Autorizador móvil ${PASS_NAME}`;
export const WAITING_MESSAGE = `Revisa tu celular y aprueba la solicitud en la app ${PASS_NAME}.`;

interface AuthoriserPanelProps {
  parties: Parties;
  numeroCuenta: string;
  category: Family;
}

/** The mobile-authoriser panel of the SecurityFactor and challenge screens. */
export function AuthoriserPanel({ parties, numeroCuenta, category }: AuthoriserPanelProps) {
  const headingId = useId();
  const { state, secondsLeft, start, retry } = useAuthoriser(parties, numeroCuenta, category);

  return (
    <section aria-labelledby={headingId} className="mt-6">
      <h2 id={headingId} className="text-lg font-semibold text-ink">
        {AUTHORISER_HEADING}
      </h2>

      {state.kind === 'idle' || state.kind === 'requesting' ? (
        <>
          <div className="mt-3 flex items-start gap-4">
            <PhoneIcon />
            <p className="min-w-0 text-sm text-muted sm:text-base">
              {`Te enviaremos una solicitud de autorización a la app ${PASS_NAME} de tu celular. Apruébala para completar el pago.`}
            </p>
          </div>
          <Button onClick={start} disabled={state.kind === 'requesting'} className="mt-5 w-full">
            Autorizar
          </Button>
          {state.kind === 'requesting' ? <Loader overlay label="Enviando la solicitud a tu celular…" /> : null}
        </>
      ) : null}

      {state.kind === 'waiting' ? (
        <div className="mt-3">
          <div className="flex items-start gap-4">
            <PhoneIcon />
            <div className="min-w-0">
              <p className="text-base font-semibold text-ink">{WAITING_MESSAGE}</p>
              <p role="status" className="mt-1 flex items-center gap-2 text-sm text-muted">
                <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4 shrink-0 animate-spin">
                  <circle cx="12" cy="12" r="9" fill="none" strokeWidth="3" className="stroke-brand-100" />
                  <path d="M12 3a9 9 0 0 1 9 9" fill="none" strokeWidth="3" strokeLinecap="round" className="stroke-brand-700" />
                </svg>
                Esperando tu aprobación…
              </p>
            </div>
          </div>
          {secondsLeft !== null ? (
            <div className="mt-5">
              <Countdown seconds={secondsLeft} />
            </div>
          ) : null}
        </div>
      ) : null}

      {state.kind === 'failed' ? (
        <PanelFailure message={state.message} retryable={state.retryable} onRetry={retry} />
      ) : null}
    </section>
  );
}

function PhoneIcon() {
  return (
    <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7 fill-none stroke-current" strokeWidth="1.75">
        <rect x="6.5" y="2.5" width="11" height="19" rx="2.5" />
        <path d="M10.5 18.5h3" strokeLinecap="round" />
        <path d="m9.5 10.5 2 2 3.5-4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}
