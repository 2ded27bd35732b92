import { BLOCKED_PASSWORD_MESSAGE } from '@pago/domain/errors';
import { MessageScreen } from '../../components/message-screen';

export function BlockedUserPage() {
  return (
    <MessageScreen tone="error" title="Tu clave ha sido bloqueada">
      <p>{BLOCKED_PASSWORD_MESSAGE}</p>
    </MessageScreen>
  );
}
