import { useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { MessageScreen } from '../../components/message-screen';
import { useAppStore } from '../../lib/app-store';
import { paths } from '../../lib/paths';
import { useErrorPageReached } from '../../lib/analytics';
import { useResetOnEnter } from './use-reset-on-enter';

/** /pagoexpress/infomessage and /pagoexpress/informativemessage: a notice the product list answered with. */
export function InfoMessagePage() {
  // Read once, before the reset below clears it.
  const [detail] = useState(() => useAppStore.getState().infoMessage);
  const { pathname } = useLocation();
  useErrorPageReached(pathname.endsWith('informativemessage') ? 'informativemessage' : 'infomessage', detail?.codigo);
  useResetOnEnter();
  // Opened without a notice (a reload, a bookmark): nothing to tell, so start again.
  if (!detail?.descripcion) return <Navigate to={paths.home} replace />;
  return (
    <MessageScreen tone="info" title="Información importante">
      <p>{detail.descripcion}</p>
    </MessageScreen>
  );
}
