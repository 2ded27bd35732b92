/**
 * Runs `step` now and then `intervalMs` after each answer, one call at a time (never two in flight), for as long
 * as it resolves true. A step that throws ends the polling. Returns stop(): no step starts after it, and `active()`
 * (handed to the step) turns false, so an answer that arrives after stop() can be ignored.
 */
export function pollEvery(intervalMs: number, step: (active: () => boolean) => Promise<boolean>): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const active = () => !stopped;

  const run = async () => {
    let again: boolean;
    try {
      again = await step(active);
    } catch {
      again = false;
    }
    if (again && !stopped) timer = setTimeout(() => void run(), intervalMs);
  };
  void run();

  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
