import { useEffect, useEffectEvent, useState } from 'react';

/** Whole seconds left until `deadline` (epoch ms), rounded up so that the display reaches 0:00 at the deadline. */
export function secondsUntil(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** Minutes and seconds, as the countdowns show them: 120 → '2:00', 119 → '1:59', 5 → '0:05'. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Seconds left until `deadline` (epoch ms), updated every second; null without a deadline (and for the instant
 * before a new one is first measured). `onExpire` runs once when the deadline passes. Counted from the clock, not
 * from ticks, so a throttled background tab stays right.
 */
export function useCountdown(deadline: number | null, onExpire: () => void): number | null {
  const [measured, setMeasured] = useState<{ deadline: number; left: number } | null>(null);
  const expire = useEffectEvent(onExpire);

  useEffect(() => {
    if (deadline === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const now = Date.now();
      setMeasured({ deadline, left: secondsUntil(deadline, now) });
      if (now >= deadline) {
        expire();
        return;
      }
      // Wake when the display next changes: the next whole second before the deadline.
      timer = setTimeout(tick, (deadline - now) % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [deadline]);

  return deadline !== null && measured?.deadline === deadline ? measured.left : null;
}
