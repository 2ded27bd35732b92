import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { Button, ButtonLink } from '../../components/button';
import { MessageScreen } from '../../components/message-screen';
import { VoucherElsewhere } from '../../components/voucher-elsewhere';
import { useAppStore } from '../../lib/app-store';
import { paths, WEBPAY_METHOD_PAY } from '../../lib/paths';
import { useProviderName } from './provider-name';
import { ID_TRANSACCION } from './webpay-return';

export const REJECTED_TITLE = 'Pago rechazado';
export const ABORTED_TITLE = '¡Pago Anulado!';
export const TIMED_OUT_TITLE = 'Pago no completado';
export const timedOutMessage = (provider: string) => `Se agotó el tiempo para completar el pago en ${provider}. No se realizó ningún cargo.`;
const NOTHING_CHARGED = 'No se realizó ningún cargo y tus cuotas siguen pendientes.';
export const REFUNDED_TITLE = 'Cargo devuelto';
export const REFUNDING_TITLE = 'Devolución en curso';
export const HELD_TITLE = 'Cargo retenido';
/** Webpay charged the card, and the charge could not be applied: the member reads that it was charged, and why. */
export const chargedNotApplied = (provider: string) =>
  `${provider} aprobó el cargo a tu tarjeta, pero no pudimos aplicarlo a lo que seleccionaste: ya se había pagado por otro medio o en otra sesión, por lo que no se pagó dos veces.`;
export const REJECTION_CAUSES = [
  'Error en el ingreso de los datos de tu tarjeta.',
  'Tu tarjeta no tiene saldo o cupo suficiente.',
  'Tu tarjeta no está habilitada para compras por internet.',
] as const;

/**
 * /pagoexpress/cancelvoucher/{idtrx}: a card payment that was not made (specification §2 'Cancel voucher'). Webpay
 * rejected it, (?estado=anulado) the member cancelled it on Webpay's form, or (?estado=expirado) the form's time ran
 * out: nothing was charged, and the instalments are still pending. Or Webpay charged what could not be applied
 * (?estado=reembolsado, reembolso, retenido): the page says it was charged, and what became of the money.
 */
export function CancelVoucherPage() {
  const { idtrx = '' } = useParams();
  const { search } = useLocation();
  // Specification §4 'Payment flow (b)': on landing, a method other than the card provider's means this is not a
  // card payment's voucher. Read once: 'Nuevo Pago' resets the method on its way out, and must not be taken there.
  const [cardPath] = useState(() => useAppStore.getState().methodPay === WEBPAY_METHOD_PAY);
  // Opened without the session that paid (another tab, a link kept for later): said as the success voucher says it.
  const [withSession] = useState(() => useAppStore.getState().customer.token !== '');
  if (!withSession) return <VoucherElsewhere />;
  if (!cardPath) return <Navigate to={paths.cancelMessage} replace />;
  if (!ID_TRANSACCION.test(idtrx)) return <Navigate to={paths.error} replace />;
  const estado = new URLSearchParams(search).get('estado');
  if (estado === 'anulado') return <AbortedPayment idTrx={idtrx} />;
  if (estado === 'expirado') return <TimedOutPayment idTrx={idtrx} />;
  if (estado === 'reembolsado' || estado === 'reembolso' || estado === 'retenido') return <ChargedNotApplied idTrx={idtrx} estado={estado} />;
  return <RejectedPayment idTrx={idtrx} />;
}

function RejectedPayment({ idTrx }: { idTrx: string }) {
  const provider = useProviderName();
  return (
    <MessageScreen tone="error" title={REJECTED_TITLE} actions={<Actions />}>
      <p>{provider} no aprobó el pago. No se hizo ningún cargo y tus cuotas siguen pendientes.</p>
      <p>Las posibles causas del rechazo son:</p>
      <ul className="list-disc space-y-1 pl-6">
        {REJECTION_CAUSES.map((cause) => (
          <li key={cause}>{cause}</li>
        ))}
      </ul>
      <p>Revisa los datos de tu tarjeta o consulta con su emisor, y vuelve a intentarlo.</p>
      <TransactionNumber idTrx={idTrx} />
    </MessageScreen>
  );
}

function AbortedPayment({ idTrx }: { idTrx: string }) {
  const cancelTrxMsg = useAppStore((state) => state.config.parameters['cancelTrxMsg']?.trim());
  return (
    <MessageScreen tone="warning" title={ABORTED_TITLE} actions={<Actions />}>
      {/* Specification §8: the text of a cancelled transaction is the cancelTrxMsg parameter; the title names it. */}
      <p>{cancelTrxMsg || NOTHING_CHARGED}</p>
      <TransactionNumber idTrx={idTrx} />
    </MessageScreen>
  );
}

/** Webpay's form ran out of time (its return had no TBK_TOKEN): the member cancelled nothing, and is not told so. */
function TimedOutPayment({ idTrx }: { idTrx: string }) {
  const provider = useProviderName();
  return (
    <MessageScreen tone="warning" title={TIMED_OUT_TITLE} actions={<Actions />}>
      <p>{timedOutMessage(provider)}</p>
      <p>Tus cuotas siguen pendientes: puedes intentarlo nuevamente cuando quieras.</p>
      <TransactionNumber idTrx={idTrx} />
    </MessageScreen>
  );
}

/** Charged by Webpay, not applied (paid meanwhile elsewhere): what became of the money, in the member's words. */
function ChargedNotApplied({ idTrx, estado }: { idTrx: string; estado: 'reembolsado' | 'reembolso' | 'retenido' }) {
  const provider = useProviderName();
  const title = estado === 'reembolsado' ? REFUNDED_TITLE : estado === 'reembolso' ? REFUNDING_TITLE : HELD_TITLE;
  return (
    <MessageScreen tone={estado === 'retenido' ? 'error' : 'warning'} title={title} actions={<Actions />}>
      <p>{chargedNotApplied(provider)}</p>
      {estado === 'reembolsado' ? (
        <p>Ya devolvimos el monto completo a tu tarjeta. Según tu banco, la devolución puede tardar algunos días en verse en tu estado de cuenta.</p>
      ) : estado === 'reembolso' ? (
        <p>Estamos devolviendo el monto completo a tu tarjeta; no necesitas hacer nada. Según tu banco, puede tardar algunos días en verse en tu estado de cuenta.</p>
      ) : (
        <p>
          {provider} no aceptó devolverlo automáticamente: el monto quedó retenido y nuestro equipo lo devolverá a tu tarjeta. Si tienes dudas,
          contáctanos indicando el número de transacción.
        </p>
      )}
      <TransactionNumber idTrx={idTrx} />
    </MessageScreen>
  );
}

function TransactionNumber({ idTrx }: { idTrx: string }) {
  return (
    <dl className="mt-5 rounded-xl border border-line bg-canvas/60 px-4 py-3 text-sm">
      <dt className="text-muted">Nº de transacción</dt>
      <dd className="font-mono break-all text-ink">{idTrx}</dd>
    </dl>
  );
}

/** 'Nuevo Pago' starts over at step 1 with the member's RUT while the session lasts; without it, at the home. */
function Actions() {
  const navigate = useNavigate();
  const hasSession = useAppStore((state) => state.customer.token !== '' && state.customer.rut !== '');
  const startNewPayment = useAppStore((state) => state.startNewPayment);

  function newPayment() {
    if (!hasSession) {
      void navigate(paths.home);
      return;
    }
    // Step 1 lists the products again: what was not paid is still there.
    startNewPayment();
    void navigate(paths.stepOne);
  }

  return (
    <>
      <Button onClick={newPayment}>Nuevo Pago</Button>
      <ButtonLink to={paths.home} variant="secondary">
        Ir al Home
      </ButtonLink>
    </>
  );
}
