import { useEffect } from 'react';
import { useAppStore } from '../../lib/app-store';

/**
 * Specification §4, 'Inactivity': error pages clear the app state. A refusal page that offers another way to pay
 * the same selection (by card) keeps it: `keep` true.
 */
export function useResetOnEnter(keep = false): void {
  const reset = useAppStore((state) => state.reset);
  useEffect(() => {
    if (!keep) reset();
  }, [reset, keep]);
}
