import { MessageScreen } from './message-screen';

export const NO_VOUCHER_TITLE = 'Comprobante no disponible';
export const VOUCHER_ELSEWHERE_MESSAGE = 'El comprobante se muestra en el navegador y la sesión en que realizaste el pago.';

/**
 * A voucher's address opened where its payment was not made (another tab, a link kept for later): what it shows is
 * answered only to the session that paid, so the member is told where to look rather than sent away without a word.
 */
export function VoucherElsewhere() {
  return (
    <MessageScreen tone="info" title={NO_VOUCHER_TITLE}>
      <p>{VOUCHER_ELSEWHERE_MESSAGE}</p>
    </MessageScreen>
  );
}
