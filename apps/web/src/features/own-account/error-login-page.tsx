import { errorDetail } from '@pago/domain/errors';
import { MessageScreen } from '../../components/message-screen';
import { useErrorPageReached } from '../../lib/analytics';
import { useResetOnEnter } from '../errors/use-reset-on-enter';
import { CardWayOut } from './card-way-out';

// Specification §6: deposits into another member's savings account are refused (catalogue code 451).
export const THIRD_PARTY_DEPOSIT_MESSAGE = errorDetail('451').descripcion;
export const ERROR_LOGIN_TITLE = 'No es posible realizar el depósito';

/** /pagoexpress/ErrorLogin. Like the other error pages it clears the app state (specification §4). */
export function ErrorLoginPage() {
  useErrorPageReached('ErrorLogin', '451');
  useResetOnEnter();
  return (
    <MessageScreen tone="warning" title={ERROR_LOGIN_TITLE}>
      <p>{THIRD_PARTY_DEPOSIT_MESSAGE}</p>
      <p>Solo el titular de la cuenta de ahorro puede depositar en ella desde su Cuenta Vista.</p>
      <CardWayOut />
    </MessageScreen>
  );
}
