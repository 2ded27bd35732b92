import { santiagoParts } from '@pago/domain/business-time';
import { useId, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../components/button';
import { MessageScreen } from '../../components/message-screen';
import { useAppStore } from '../../lib/app-store';
import { routeError } from '../../lib/error-routing';
import { paths } from '../../lib/paths';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { checkPayment, type PaymentCheck } from './api/consultar-pago';
import { useProviderName } from './provider-name';
import { cardVoucherPath, parseWebpayFinal } from './webpay-return';

export const PARTIAL_TITLE = 'Pago parcialmente aprobado';
export const PENDING_TITLE = 'Estamos confirmando tu pago';
export const SEE_VOUCHER = 'Ver comprobante';
export const CHECK_AGAIN = 'Consultar nuevamente';
/** Call 7's code for a transaction whose payment is still in process. */
export const STILL_PENDING = '509';
export const CHECK_FAILED = 'No pudimos consultar el estado de tu pago. Inténtalo nuevamente en unos momentos.';

/**
 * /pagoexpress/webpayfinal: a card payment that ended neither paid in full nor rejected. With ?idTransaccion only,
 * Webpay approved some products and rejected others; with &estado=pendiente, Webpay has not confirmed the result
 * yet (the host will settle it, on the member's next check or by its reconciliation).
 */
export function WebpayFinalPage() {
  const { search } = useLocation();
  const family = useAppStore((state) => state.selection.family);
  const final = parseWebpayFinal(search);
  if (!final) return <Navigate to={paths.error} replace />;
  const voucher = cardVoucherPath(final.idTransaccion, family);
  return final.state === 'parcial' ? (
    <PartialPayment voucher={voucher} />
  ) : (
    <PendingPayment idTransaccion={final.idTransaccion} voucher={voucher} />
  );
}

function PartialPayment({ voucher }: { voucher: string }) {
  const provider = useProviderName();
  return (
    <MessageScreen
      tone="warning"
      title={PARTIAL_TITLE}
      actions={
        <>
          <ButtonLink to={voucher}>{SEE_VOUCHER}</ButtonLink>
          <ButtonLink to={paths.home} variant="secondary">
            Ir al Home
          </ButtonLink>
        </>
      }
    >
      <p>{provider} aprobó el pago de algunos de tus productos y rechazó el de otros.</p>
      <p>
        Lo aprobado ya está pagado: el comprobante muestra el detalle. Lo rechazado no se cobró y sigue pendiente;
        puedes pagarlo en un nuevo pago.
      </p>
    </MessageScreen>
  );
}

type Check = { kind: 'idle' } | { kind: 'checking' } | { kind: 'message'; text: string };

function PendingPayment({ idTransaccion, voucher }: { idTransaccion: string; voucher: string }) {
  const provider = useProviderName();
  const navigate = useNavigate();
  const followOutcome = useFollowOutcome();
  const rut = useAppStore((state) => state.customer.rut);
  const token = useAppStore((state) => state.customer.token);
  const [check, setCheck] = useState<Check>({ kind: 'idle' });
  const statusId = useId();
  // One check at a time. The button stays enabled (a disabled button would drop the keyboard focus).
  const inFlight = useRef(false);
  // Call 7 answers only to the session that created the transaction.
  const canCheck = rut !== '' && token !== '';

  async function checkAgain() {
    if (inFlight.current) return;
    inFlight.current = true;
    setCheck({ kind: 'checking' });
    let answer: PaymentCheck;
    try {
      answer = await checkPayment(rut, token, idTransaccion);
    } catch {
      inFlight.current = false;
      // Stay: the error page would clear the session, and with it the only way to ask again.
      setCheck({ kind: 'message', text: CHECK_FAILED });
      return;
    }
    inFlight.current = false;
    if (answer.kind === 'paid') {
      await navigate(voucher, { replace: true });
      return;
    }
    if (answer.error.codigo === STILL_PENDING) {
      // A new text on every answer, so that the live region announces each one.
      const { hour, minute } = santiagoParts(new Date());
      const at = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
      const text = answer.error.descripcion.trim() || 'Tu pago aún se está procesando.';
      setCheck({ kind: 'message', text: `${text} (Consultado a las ${at} hrs.)` });
      return;
    }
    followOutcome(routeError('consultarPago', answer.error));
  }

  return (
    <MessageScreen
      tone="info"
      title={PENDING_TITLE}
      actions={
        <>
          {canCheck ? (
            <Button onClick={() => void checkAgain()} aria-describedby={statusId}>
              {check.kind === 'checking' ? 'Consultando…' : CHECK_AGAIN}
            </Button>
          ) : null}
          <ButtonLink to={paths.home} variant={canCheck ? 'secondary' : 'primary'}>
            Ir al Home
          </ButtonLink>
        </>
      }
    >
      <p>{provider} aún no nos confirma el resultado de tu pago. No vuelvas a pagar mientras tanto.</p>
      <p>Si se aprueba, verás tu comprobante. Si no, tus cuotas seguirán pendientes y no se hará ningún cargo a tu tarjeta.</p>
      {canCheck ? null : (
        <p>Ingresa de nuevo con tu RUT en unos minutos: si el pago se aprobó, ya no verás esas cuotas pendientes.</p>
      )}
      <p id={statusId} role="status" className="font-medium text-ink">
        {check.kind === 'message' ? check.text : ''}
      </p>
    </MessageScreen>
  );
}
