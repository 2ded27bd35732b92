/**
 * A value read from the database and then served from memory under a lease: for `leaseMs` counted from before the
 * read that produced it began. Whatever is served at time t was therefore read from a snapshot taken after
 * t - leaseMs, so a writer that waits `leaseMs` after its commit before answering knows that every holder's next
 * call sees the write (repositories/parameters-repository.ts).
 *
 * Calls that arrive while a read is under way share it, but only when that read began recently enough for the
 * lease the call needs; otherwise a call starts a read of its own. With a lease of 0 every call reads.
 */
export interface Lease<T> {
  leaseMs: number;
  get(): Promise<T>;
}

/** `read` gets the value served last (if any), so it can keep it when a cheaper check says nothing changed. */
export function createLease<T>(read: (previous: T | undefined) => Promise<T>, leaseMs: number, now: () => number = () => performance.now()): Lease<T> {
  let last: { value: T; validUntil: number } | null = null;
  let reading: { startedAt: number; result: Promise<T> } | null = null;

  const lease: Lease<T> = {
    leaseMs,
    async get() {
      const at = now();
      if (last && at < last.validUntil) return last.value;
      let shared = reading;
      if (!shared || shared.startedAt + lease.leaseMs <= at) {
        const started = { startedAt: at, result: read(last?.value) };
        reading = shared = started;
        started.result.then(
          (value) => {
            const validUntil = started.startedAt + lease.leaseMs;
            if (!last || validUntil >= last.validUntil) last = { value, validUntil };
            if (reading === started) reading = null;
          },
          () => {
            if (reading === started) reading = null;
          },
        );
      }
      return shared.result;
    },
  };
  return lease;
}
