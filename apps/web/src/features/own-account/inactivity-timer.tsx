import { createContext, useContext, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { InactivityModal } from '../../components/inactivity-modal';
import { useAppStore } from '../../lib/app-store';
import { ROUTES } from '../../lib/paths';
import { inactivityDelayMs, useInactivity } from '../../lib/use-inactivity';

const SessionExpired = createContext(false);

/** True once the inactivity modal is up: the screen's own dialogs step aside for it. */
export function useSessionExpired(): boolean {
  return useContext(SessionExpired);
}

interface InactivityTimerProps {
  children: ReactNode;
  /** The delay; by default sessionTimeOut minutes from the parameters (specification §9). Tests pass their own. */
  timeoutMs?: number;
}

/**
 * Specification §4 'Inactivity': after sessionTimeOut minutes without the member touching the screen, the modal
 * 'Tiempo de inactividad agotado'; 'Aceptar' goes to /pagoexpress, whose home clears the state.
 */
export function InactivityTimer({ children, timeoutMs }: InactivityTimerProps) {
  const navigate = useNavigate();
  const sessionTimeOut = useAppStore((state) => state.config.parameters['sessionTimeOut']);
  const expired = useInactivity(timeoutMs ?? inactivityDelayMs(sessionTimeOut));

  function accept() {
    // The home clears the whole state on entry (specification §3). Clearing it here, before the navigation has
    // landed, would end the session under this authenticated screen and let the access guard send the member to /.
    void navigate(ROUTES.homeExpress.path, { replace: true });
  }

  return (
    <SessionExpired value={expired}>
      {children}
      <InactivityModal open={expired} onAccept={accept} />
    </SessionExpired>
  );
}
