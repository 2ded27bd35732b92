import { GENERIC_SERVICE_MESSAGE } from '@pago/domain/errors';
import { useState } from 'react';
import { MessageScreen } from '../../components/message-screen';
import { useAppStore } from '../../lib/app-store';
import { useResetOnEnter } from './use-reset-on-enter';
import { useErrorPageReached } from '../../lib/analytics';

export function CustomErrorPage() {
  // Read once, before the reset below clears it; a reload therefore shows the generic message.
  const [message] = useState(() => useAppStore.getState().customError.message || GENERIC_SERVICE_MESSAGE);
  useErrorPageReached('customError');
  useResetOnEnter();
  return (
    <MessageScreen tone="error" title="¡Lo sentimos!">
      <p>{message}</p>
    </MessageScreen>
  );
}
