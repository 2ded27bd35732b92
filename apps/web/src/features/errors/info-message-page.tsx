import { useState } from 'react';
import { Navigate } from 'react-router';
import { MessageScreen } from '../../components/message-screen';
import { useAppStore } from '../../lib/app-store';
import { paths } from '../../lib/paths';
import { useResetOnEnter } from './use-reset-on-enter';

/** /pagoexpress/infomessage and /pagoexpress/informativemessage: a notice the product list answered with. */
export function InfoMessagePage() {
  // Read once, before the reset below clears it.
  const [detail] = useState(() => useAppStore.getState().infoMessage);
  useResetOnEnter();
  // Opened without a notice (a reload, a bookmark): nothing to tell, so start again.
  if (!detail?.descripcion) return <Navigate to={paths.home} replace />;
  return (
    <MessageScreen tone="info" title="Información importante">
      <p>{detail.descripcion}</p>
    </MessageScreen>
  );
}
