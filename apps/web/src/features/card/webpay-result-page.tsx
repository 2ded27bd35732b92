import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paymentResult } from '../../lib/analytics';
import { useAppStore } from '../../lib/app-store';
import { ScreenArrival } from '../../app/arrival';
import { HOLD } from './hold-after-webpay';
import { parseWebpayReturn, screenAfterReturn } from './webpay-return';

/**
 * /pagoexpress/webpayresult: where the payment host sends the browser back from Webpay (specification §4 'Payment
 * flow (b)', §5 'Card provider return URL'). It shows nothing of its own: it checks the URL and replaces itself with
 * the screen of the outcome, showing that screen's arrival meanwhile. That screen is entered twice in the history:
 * the entry before it is Webpay's own form, which Back would post again ("ya fue procesada"), so Back shows the
 * outcome again instead (useHoldAfterWebpay).
 */
const OUTCOMES = {
  aprobado: 'approved',
  parcial: 'partial',
  rechazado: 'rejected',
  anulado: 'cancelled',
  expirado: 'expired',
  pendiente: 'pending',
  reembolsado: 'refunded',
  reembolso: 'refunding',
  retenido: 'held',
} as const;

export function WebpayResultPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const family = useAppStore((state) => state.selection.family);
  const result = parseWebpayReturn(search);
  const next = screenAfterReturn(result, family);
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    if (result) paymentResult(family, 'webpay', OUTCOMES[result.estado]);
    if (result?.estado === 'aprobado') useAppStore.getState().recordPaid(result.idTransaccion, next);
    void navigate(next, { replace: true, state: result ? HOLD : null });
    if (result) void navigate(next);
    // Once, for the return this page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <ScreenArrival />;
}
