import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAppStore } from './app-store';
import type { ErrorOutcome } from './error-routing';
import { paths } from './paths';

/**
 * Carries out what error-routing decided. Screens that show modals handle `kind: 'modal'` themselves before
 * calling this; any other screen shows the modal's message on customError rather than losing it.
 */
export function useFollowOutcome(): (outcome: ErrorOutcome) => void {
  const navigate = useNavigate();
  const setCustomError = useAppStore((state) => state.setCustomError);
  const setInfoMessage = useAppStore((state) => state.setInfoMessage);

  return useCallback(
    (outcome: ErrorOutcome) => {
      switch (outcome.kind) {
        case 'customError':
        case 'modal':
          setCustomError(outcome.message);
          void navigate(paths.customError);
          return;
        case 'infoMessage':
          setInfoMessage(outcome.detail);
          void navigate(outcome.to);
          return;
        case 'navigate':
          void navigate(outcome.to);
          return;
      }
    },
    [navigate, setCustomError, setInfoMessage],
  );
}
