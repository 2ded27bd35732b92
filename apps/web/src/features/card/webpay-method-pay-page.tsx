import type { Family } from '@pago/domain/families';
import { debitCreditSwitchName } from '@pago/domain/parameters';
import { useEffect, useRef, useState } from 'react';
import { Button, ButtonLink } from '../../components/button';
import { Notice } from '../../components/notice';
import { PaymentTotal } from '../../components/payment-total';
import { Screen } from '../../components/screen';
import { useAppStore } from '../../lib/app-store';
import { paths, WEBPAY_METHOD_PAY } from '../../lib/paths';
import { useCategory } from '../../lib/use-category';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { useProviderName } from './provider-name';
import { handOffOnce } from './webpay-hand-off';

export const GO_TO_WEBPAY = 'Ir a Webpay';
export const webpayTitle = (provider: string) => `Pago con ${provider}`;
export const redirectMessage = (provider: string) => `Serás redirigido a ${provider} para completar tu pago.`;
export const PREPARING = 'Preparando tu pago…';
export const redirecting = (provider: string) =>
  `Redirigiendo a ${provider}… Si no ocurre en unos segundos, presiona «${GO_TO_WEBPAY}».`;
export const resumeMessage = (provider: string) =>
  `Ya iniciaste este pago en ${provider}. Vuelve a su formulario para completarlo, o anúlalo allí si no quieres pagar.`;

/**
 * /pagoexpress/{category}/webpaymethodpay (specification §4 'Payment flow (b)'): opens the card payment (calls 9 and
 * 10) for the transaction step 3 created, then posts token_ws to Webpay's form.
 */
export function WebpayMethodPayPage() {
  const category = useCategory();
  const provider = useProviderName();
  const idTrx = useAppStore((state) => state.payment.idTrx);
  const methodPay = useAppStore((state) => state.methodPay);
  const family = useAppStore((state) => state.selection.family);
  const token = useAppStore((state) => state.customer.token);

  // Opened without step 3's card payment (a bookmark, another tab, a cleared state): nothing to send to Webpay.
  if (!idTrx || !token || methodPay !== WEBPAY_METHOD_PAY || family !== category) {
    return (
      <Screen title={webpayTitle(provider)}>
        <Notice tone="info">
          <p>No tienes un pago en curso. Selecciona los productos que quieres pagar.</p>
        </Notice>
        <div className="mt-6 flex flex-col gap-3">
          <ButtonLink to={paths.stepOne}>Ir a mis productos</ButtonLink>
        </div>
      </Screen>
    );
  }
  return <HandOff key={idTrx} category={category} idTrx={idTrx} provider={provider} />;
}

type Phase =
  | { kind: 'starting' }
  /** The form is posted as soon as it is drawn. */
  | { kind: 'ready'; url: string; token: string }
  /** Back on this screen after the form was posted: offered again, never posted by itself. */
  | { kind: 'resume'; url: string; token: string };

interface HandOffProps {
  category: Family;
  idTrx: string;
  provider: string;
}

function HandOff({ category, idTrx, provider }: HandOffProps) {
  const followOutcome = useFollowOutcome();
  const setCardProvider = useAppStore((state) => state.setCardProvider);
  const amount = useAppStore((state) => state.payment.amount);
  const selection = useAppStore((state) => state.selection);
  const acceptsCredit = useAppStore((state) => state.config.parameters[debitCreditSwitchName(category)] === '1');

  // Tokens already issued for this transaction mean the member has been to Webpay's form and came back (Back, a
  // reload): a second Webpay transaction for the same payment is not opened, nor is the member sent back unasked.
  const [phase, setPhase] = useState<Phase>(() => {
    const issued = useAppStore.getState().cardProvider;
    return issued.idTrx === idTrx && issued.tokenWP && issued.urlInit
      ? { kind: 'resume', url: issued.urlInit, token: issued.tokenWP }
      : { kind: 'starting' };
  });
  const starts = phase.kind === 'starting';

  useEffect(() => {
    if (!starts) return;
    let active = true;
    const { customer, selection: chosen, config } = useAppStore.getState();
    // Once per transaction: strict mode's second effect, or a re-render, joins the calls already under way.
    void handOffOnce(
      {
        family: category,
        idTrx,
        session: { rut: customer.rut, token: customer.token },
        productsToPay: chosen.productsToPay,
        parameters: config.parameters,
      },
      setCardProvider,
    ).then((result) => {
      if (!active) return;
      if (result.kind === 'ready') setPhase({ kind: 'ready', url: result.url, token: result.token });
      else followOutcome(result.outcome);
    });
    return () => {
      active = false;
    };
  }, [starts, category, idTrx, setCardProvider, followOutcome]);

  const formRef = useRef<HTMLFormElement>(null);
  const posted = useRef(false);
  useEffect(() => {
    if (phase.kind !== 'ready' || posted.current) return;
    posted.current = true;
    formRef.current?.submit();
  }, [phase.kind]);

  // A page restored from the back-forward cache after the post: show the way back to Webpay instead of a spinner.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setPhase((current) => (current.kind === 'ready' ? { ...current, kind: 'resume' } : current));
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  return (
    <Screen title={webpayTitle(provider)}>
      {phase.kind === 'resume' ? null : <p className="mt-2 text-base text-muted">{redirectMessage(provider)}</p>}
      <PaymentTotal amount={amount} selection={selection} category={category}>
        <p className="mt-3 text-sm text-muted">
          {acceptsCredit ? 'Paga con tu tarjeta de débito o de crédito.' : 'Paga con tu tarjeta de débito o prepago.'}
        </p>
      </PaymentTotal>

      {phase.kind === 'resume' ? (
        <Notice tone="info">
          <p>{resumeMessage(provider)}</p>
        </Notice>
      ) : null}

      {/* The state of the hand-off, read out as it changes. */}
      <div role="status" className="mt-6 flex items-center gap-3 text-base font-medium text-ink empty:mt-0">
        {phase.kind === 'resume' ? null : (
          <>
            <svg aria-hidden="true" viewBox="0 0 48 48" className="size-8 shrink-0 animate-spin">
              <circle cx="24" cy="24" r="20" fill="none" strokeWidth="5" className="stroke-brand-100" />
              <path
                d="M24 4a20 20 0 0 1 20 20"
                fill="none"
                strokeWidth="5"
                strokeLinecap="round"
                className="stroke-brand-700"
              />
            </svg>
            <span>{phase.kind === 'starting' ? PREPARING : redirecting(provider)}</span>
          </>
        )}
      </div>

      {phase.kind === 'starting' ? null : (
        // Webpay's own page is reached by posting its token to its URL (Transbank: a form, never an iframe). The
        // button is the way there when the script's submit is blocked, and after coming back.
        <form ref={formRef} method="post" action={phase.url} className="mt-6 flex flex-col gap-3">
          <input type="hidden" name="token_ws" value={phase.token} />
          <Button type="submit" className="w-full">
            {GO_TO_WEBPAY}
          </Button>
          {phase.kind === 'resume' ? (
            <ButtonLink to={paths.home} variant="secondary" className="w-full">
              Ir al Home
            </ButtonLink>
          ) : null}
        </form>
      )}
    </Screen>
  );
}
