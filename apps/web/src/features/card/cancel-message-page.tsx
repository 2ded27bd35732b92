import { MessageScreen } from '../../components/message-screen';
import { useAppStore } from '../../lib/app-store';
import { useErrorPageReached } from '../../lib/analytics';

export const CANCELLED_TITLE = '¡Pago Anulado!';

/** /pagoexpress/cancelMessage: a cancelled transaction outside the card provider's path. */
export function CancelMessagePage() {
  useErrorPageReached('cancelMessage');
  // Specification §8: the text of a cancelled transaction comes from the cancelTrxMsg parameter.
  const message = useAppStore((state) => state.config.parameters['cancelTrxMsg']?.trim());
  return (
    <MessageScreen tone="warning" title={CANCELLED_TITLE}>
      <p>{message || 'Tu pago fue anulado y no se realizó ningún cargo.'}</p>
    </MessageScreen>
  );
}
