import { useEffect, useState } from 'react';

/** Specification §9: the inactivity delay is sessionTimeOut minutes; 5 when the parameter is missing or unusable. */
export const DEFAULT_SESSION_TIMEOUT_MINUTES = 5;

/** What counts as the member being there. Listened to in the capture phase, so scrolling inside a box counts too. */
export const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

/** sessionTimeOut (minutes, as the parameter call answers it) in milliseconds. */
export function inactivityDelayMs(sessionTimeOut: string | undefined): number {
  const minutes = Number(sessionTimeOut);
  return (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_SESSION_TIMEOUT_MINUTES) * 60_000;
}

/**
 * True once `timeoutMs` have passed without activity (ACTIVITY_EVENTS on the window); it stays true until the
 * component unmounts or `timeoutMs` changes. Activity only records a time stamp, so a moving pointer costs nothing:
 * one timer checks the stamp when it is due and waits again for what is left.
 */
export function useInactivity(timeoutMs: number): boolean {
  const [expiry, setExpiry] = useState<{ timeoutMs: number; expired: boolean }>({ timeoutMs, expired: false });

  useEffect(() => {
    let last = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onActivity = () => {
      last = Date.now();
    };
    const stopListening = () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, true);
    };
    const check = () => {
      const idle = Date.now() - last;
      if (idle >= timeoutMs) {
        stopListening();
        setExpiry({ timeoutMs, expired: true });
        return;
      }
      timer = setTimeout(check, timeoutMs - idle);
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { capture: true, passive: true });
    timer = setTimeout(check, timeoutMs);
    return () => {
      clearTimeout(timer);
      stopListening();
    };
  }, [timeoutMs]);

  // A new delay starts a new watch: an expiry under the old one does not count.
  return expiry.timeoutMs === timeoutMs && expiry.expired;
}
