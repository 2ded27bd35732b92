import { MessageScreen } from '../../components/message-screen';
import { useResetOnEnter } from './use-reset-on-enter';
import { useErrorPageReached } from '../../lib/analytics';

export function CierrePage() {
  useErrorPageReached('cierre');
  useResetOnEnter();
  return (
    <MessageScreen tone="info" title="Cierre diario">
      <p>Estamos realizando el cierre diario de nuestras operaciones.</p>
      <p>Los pagos se procesarán una vez finalizado el cierre. Por favor vuelve a intentarlo más tarde.</p>
    </MessageScreen>
  );
}
