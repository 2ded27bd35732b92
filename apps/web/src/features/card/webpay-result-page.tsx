import { Navigate, useLocation } from 'react-router';
import { useAppStore } from '../../lib/app-store';
import { parseWebpayReturn, screenAfterReturn } from './webpay-return';

/**
 * /pagoexpress/webpayresult: where the payment host sends the browser back from Webpay (specification §4 'Payment
 * flow (b)', §5 'Card provider return URL'). It shows nothing of its own: it checks the URL and replaces itself with
 * the screen of the outcome, so that Back leads neither here nor into Webpay again.
 */
export function WebpayResultPage() {
  const { search } = useLocation();
  const family = useAppStore((state) => state.selection.family);
  return <Navigate to={screenAfterReturn(parseWebpayReturn(search), family)} replace />;
}
