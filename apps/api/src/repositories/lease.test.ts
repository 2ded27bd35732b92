import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLease } from './lease';

const flush = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A simulated replica and database on a fake clock: commits at chosen instants, reads that take any time (longer
 * than the lease too) and whose snapshot falls anywhere within them, calls arriving at any instant. A writer answers
 * after `leaseMs` has passed since its commit (parameters-service adds a margin); the property is that every call
 * arriving after that gets that commit or a later one.
 */
describe('createLease', () => {
  it("never serves a call that arrives a lease after a commit anything older than that commit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.array(
          fc.record({
            gap: fc.integer({ min: 0, max: 30 }),
            kind: fc.constantFrom('call', 'call', 'commit'),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        fc.array(fc.record({ duration: fc.integer({ min: 0, max: 80 }), snapshotAt: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 10 }),
        async (leaseMs, events, reads) => {
          let clock = 0;
          const commits: number[] = []; // commits[v - 1] is when version v committed
          const versionAt = (t: number) => commits.filter((at) => at < t).length;
          const pending: { endsAt: number; finish: () => void }[] = [];
          let readNo = 0;
          const lease = createLease<number>(() => {
            const { duration, snapshotAt } = reads[readNo++ % reads.length]!;
            const startedAt = clock;
            return new Promise((resolve) => {
              pending.push({ endsAt: startedAt + duration, finish: () => resolve(versionAt(startedAt + snapshotAt * duration)) });
            });
          }, leaseMs, () => clock);

          const answers: { arrivedAt: number; version: number }[] = [];
          const runUntil = async (t: number) => {
            for (;;) {
              pending.sort((a, b) => a.endsAt - b.endsAt);
              const next = pending[0];
              if (!next || next.endsAt > t) break;
              pending.shift();
              clock = next.endsAt;
              next.finish();
              await flush();
            }
            clock = t;
          };

          let at = 0;
          for (const event of events) {
            at += event.gap;
            await runUntil(at);
            if (event.kind === 'commit') commits.push(at);
            else {
              const arrivedAt = at;
              void lease.get().then((version) => answers.push({ arrivedAt, version }));
              await flush();
            }
          }
          await runUntil(Number.MAX_SAFE_INTEGER);
          await flush();

          expect(answers).toHaveLength(events.filter((e) => e.kind === 'call').length);
          for (const { arrivedAt, version } of answers) {
            const answeredWriters = commits.filter((committedAt) => committedAt + leaseMs < arrivedAt).length;
            expect(version).toBeGreaterThanOrEqual(answeredWriters);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads once per lease while calls keep coming, and every call when the lease is 0', async () => {
    let clock = 0;
    let reads = 0;
    const leased = createLease(async () => ++reads, 100, () => clock);
    for (clock = 0; clock < 1000; clock += 10) await leased.get();
    expect(reads).toBe(10);
    const unleased = createLease(async () => ++reads, 0, () => clock);
    reads = 0;
    for (let i = 0; i < 5; i++) await unleased.get();
    expect(reads).toBe(5);
  });

  it('does not keep a failed read: the next call reads again', async () => {
    let fail = true;
    const leased = createLease(async () => {
      if (fail) throw new Error('database unavailable');
      return 'rows';
    }, 1000);
    await expect(leased.get()).rejects.toThrow('database unavailable');
    fail = false;
    await expect(leased.get()).resolves.toBe('rows');
  });
});
