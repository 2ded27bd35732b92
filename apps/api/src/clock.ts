/** Business time comes from here, never from `new Date()` in a service, so tests and the sandbox can set it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** A clock that starts at `start` and runs at the real pace from the moment it is made. */
export function shiftedClock(start: Date): Clock {
  const offset = start.getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}

/** The configured business clock: SANDBOX_CLOCK when set (sandbox only), else the system clock. */
export function clockFromConfig(config: { sandboxClock?: string | undefined }): Clock {
  return config.sandboxClock ? shiftedClock(new Date(config.sandboxClock)) : systemClock;
}
