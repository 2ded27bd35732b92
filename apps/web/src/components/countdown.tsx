import { formatCountdown } from '../lib/use-countdown';

/** What a screen reader hears, only when the remaining time crosses a mark (never every second). */
export function countdownMilestone(seconds: number): string {
  if (seconds <= 0) return 'El tiempo para autorizar terminó.';
  if (seconds <= 30) return 'Quedan menos de 30 segundos para autorizar.';
  if (seconds <= 60) return 'Queda menos de 1 minuto para autorizar.';
  return '';
}

interface CountdownProps {
  /** Seconds left. */
  seconds: number;
  label?: string;
}

/**
 * The authorisation countdown in minutes ('1:59'). role="timer" is not announced as it ticks; a polite live region
 * speaks up only at one minute, thirty seconds and the end.
 */
export function Countdown({ seconds, label = 'Tiempo para autorizar' }: CountdownProps) {
  const urgent = seconds <= 30;
  return (
    <div className="flex items-center justify-between gap-3 rounded-xl bg-canvas px-4 py-3">
      <span className="flex items-center gap-2 text-sm font-semibold text-ink">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0 fill-none stroke-current" strokeWidth="2">
          <circle cx="12" cy="13" r="8" />
          <path d="M12 9v4l2.5 2.5M9.5 2.5h5" strokeLinecap="round" />
        </svg>
        {label}
      </span>
      <span
        role="timer"
        aria-label={`${label}: ${formatCountdown(seconds)}`}
        className={`text-xl font-bold tabular-nums ${urgent ? 'text-danger' : 'text-brand-700'}`}
      >
        {formatCountdown(seconds)}
      </span>
      <span className="sr-only" aria-live="polite" aria-atomic="true">
        {countdownMilestone(seconds)}
      </span>
    </div>
  );
}
