/**
 * Runs `start` at most once at a time per key: a second caller while the first is under way gets the same promise.
 * React runs a screen's effects twice in strict mode and may mount a screen again; calls 9 and 10 must not be made
 * twice for one transaction, or Webpay would hold two open transactions for a single payment. The key is forgotten
 * once the promise settles: what it produced is in the app state by then.
 */
export function oncePerKey<T>(): (key: string, start: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, start) => {
    const existing = running.get(key);
    if (existing) return existing;
    const promise = start().finally(() => running.delete(key));
    running.set(key, promise);
    return promise;
  };
}
