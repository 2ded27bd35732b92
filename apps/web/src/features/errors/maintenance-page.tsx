import { MessageScreen } from '../../components/message-screen';
import { useResetOnEnter } from './use-reset-on-enter';
import { useErrorPageReached } from '../../lib/analytics';

export function MaintenancePage() {
  useErrorPageReached('maintenance');
  useResetOnEnter();
  return (
    <MessageScreen tone="warning" title="Sitio Web en Mantención">
      <p>Estamos realizando mejoras para atenderte mejor. Por favor vuelve a intentarlo más tarde.</p>
    </MessageScreen>
  );
}
