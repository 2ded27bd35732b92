import { errorDetail } from '@pago/domain/errors';
import { MessageScreen } from '../../components/message-screen';

// Specification §6: deposits into another member's savings account are refused (catalogue code 451).
const THIRD_PARTY_DEPOSIT = errorDetail('451').descripcion;

export function ErrorLoginPage() {
  return (
    <MessageScreen tone="warning" title="No es posible realizar el depósito">
      <p>{THIRD_PARTY_DEPOSIT}</p>
    </MessageScreen>
  );
}
