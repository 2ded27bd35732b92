import { INSUFFICIENT_FUNDS_MESSAGE } from '@pago/domain/errors';
import { MessageScreen } from '../../components/message-screen';

export function InsufficientFundsPage() {
  return (
    <MessageScreen tone="warning" title="Saldo insuficiente">
      <p>{INSUFFICIENT_FUNDS_MESSAGE}</p>
    </MessageScreen>
  );
}
