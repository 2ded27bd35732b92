import { useState } from 'react';
import { MessageScreen } from '../../components/message-screen';
import { useAppStore } from '../../lib/app-store';
import { useErrorPageReached } from '../../lib/analytics';
import { useResetOnEnter } from '../errors/use-reset-on-enter';

export const CANCELLED_TITLE = '¡Pago Anulado!';

/** /pagoexpress/cancelMessage: a cancelled transaction outside the card provider's path. */
export function CancelMessagePage() {
  useErrorPageReached('cancelMessage');
  // Specification §8: the text of a cancelled transaction comes from the cancelTrxMsg parameter. Read once, before
  // the reset below clears it (specification §4: error pages clear the app state).
  const [message] = useState(() => useAppStore.getState().config.parameters['cancelTrxMsg']?.trim());
  useResetOnEnter();
  return (
    <MessageScreen tone="warning" title={CANCELLED_TITLE}>
      <p>{message || 'No se realizó ningún cargo.'}</p>
    </MessageScreen>
  );
}
