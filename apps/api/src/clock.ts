/** Business time comes from here, never from `new Date()` in a service, so tests and the sandbox can set it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** A clock that starts at `start` and runs at the real pace from the moment it is made. */
export function shiftedClock(start: Date): Clock {
  const offset = start.getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}

/** The sandbox's business clock: runs at the real pace from `start`, and the sandbox can set it to another instant. */
export interface SettableClock extends Clock {
  set(instant: Date): void;
}

export function settableClock(start: Date): SettableClock {
  let offset = start.getTime() - Date.now();
  return Object.assign(() => new Date(Date.now() + offset), {
    set(instant: Date) {
      offset = instant.getTime() - Date.now();
    },
  });
}

export const isSettable = (clock: Clock): clock is SettableClock => 'set' in clock && typeof clock.set === 'function';

/**
 * The configured business clock: in the sandbox one that POST /sandbox/reloj can set, starting at SANDBOX_CLOCK when
 * given (tests pin opening hours with it); else the system clock.
 */
export function clockFromConfig(config: { sandbox?: boolean; sandboxClock?: string | undefined }): Clock {
  if (config.sandboxClock) return settableClock(new Date(config.sandboxClock));
  return config.sandbox ? settableClock(new Date()) : systemClock;
}
