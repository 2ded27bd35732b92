import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paymentResult } from '../../lib/analytics';
import { useAppStore } from '../../lib/app-store';
import { parseWebpayReturn, screenAfterReturn } from './webpay-return';

/**
 * /pagoexpress/webpayresult: where the payment host sends the browser back from Webpay (specification §4 'Payment
 * flow (b)', §5 'Card provider return URL'). It shows nothing of its own: it checks the URL and replaces itself with
 * the screen of the outcome, so that Back leads neither here nor into Webpay again.
 */
const OUTCOMES = { aprobado: 'approved', parcial: 'partial', rechazado: 'rejected', anulado: 'cancelled', pendiente: 'pending' } as const;

export function WebpayResultPage() {
  const { search } = useLocation();
  const family = useAppStore((state) => state.selection.family);
  const result = parseWebpayReturn(search);
  useEffect(() => {
    if (result) paymentResult(family, 'webpay', OUTCOMES[result.estado]);
    // Once, for the return this page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <Navigate to={screenAfterReturn(result, family)} replace />;
}
