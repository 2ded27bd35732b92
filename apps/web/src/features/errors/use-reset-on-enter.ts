import { useEffect } from 'react';
import { useAppStore } from '../../lib/app-store';

/** Specification §4, 'Inactivity': error pages clear the app state. */
export function useResetOnEnter(): void {
  const reset = useAppStore((state) => state.reset);
  useEffect(() => {
    reset();
  }, [reset]);
}
