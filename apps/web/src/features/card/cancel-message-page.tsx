import { MessageScreen } from '../../components/message-screen';
import { useAppStore } from '../../lib/app-store';

export function CancelMessagePage() {
  // Specification §8: the text of a cancelled transaction comes from the cancelTrxMsg parameter.
  const message = useAppStore((state) => state.config.parameters['cancelTrxMsg']);
  return (
    <MessageScreen tone="warning" title="¡Pago Anulado!">
      {message ? <p>{message}</p> : null}
    </MessageScreen>
  );
}
