import { PAYMENT_FAILED_MESSAGE } from '@pago/domain/errors';
import { MessageScreen } from '../../components/message-screen';
import { useResetOnEnter } from './use-reset-on-enter';
import { useErrorPageReached } from '../../lib/analytics';

export function ErrorPage() {
  useErrorPageReached('error');
  useResetOnEnter();
  return (
    <MessageScreen tone="error" title="¡Lo sentimos!">
      <p>{PAYMENT_FAILED_MESSAGE}</p>
    </MessageScreen>
  );
}
