import type { FastifyBaseLogger } from 'fastify';
import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { createScheduler } from './scheduler';

const silentLog = () => ({ error: vi.fn(), warn: vi.fn(), info: vi.fn() }) as unknown as FastifyBaseLogger & { error: ReturnType<typeof vi.fn> };

describe('the scheduler', () => {
  it('never runs a job twice at once: a tick that finds it running joins that run', async () => {
    let release!: () => void;
    let runs = 0;
    const scheduler = createScheduler([{ name: 'slow', everyMs: 10, run: () => (runs++, new Promise<void>((r) => (release = r))) }], silentLog(), new Registry());
    const first = scheduler.runNow('slow');
    const second = scheduler.runNow('slow');
    expect(runs).toBe(1);
    release();
    await Promise.all([first, second]);
    // Once that run ended, the next tick runs the job again.
    const third = scheduler.runNow('slow');
    expect(runs).toBe(2);
    release();
    await third;
  });

  it('logs and counts a failing run without throwing, and goes on at the next tick', async () => {
    const log = silentLog();
    const registry = new Registry();
    let calls = 0;
    const scheduler = createScheduler([{ name: 'flaky', everyMs: 20, run: async () => {
      calls++;
      if (calls === 1) throw new Error('database away');
    } }], log, registry);
    scheduler.start();
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(2));
    await scheduler.stop();
    expect(log.error).toHaveBeenCalledTimes(1);
    const stoppedAt = calls;
    const metrics = await registry.getMetricsAsJSON();
    const runs = metrics.find((m) => m.name === 'pago_online_job_runs_total')!.values;
    expect(runs).toEqual(expect.arrayContaining([expect.objectContaining({ labels: { job: 'flaky', outcome: 'failed' }, value: 1 }), expect.objectContaining({ labels: { job: 'flaky', outcome: 'ok' } })]));
    // Stopped: no tick runs it again.
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(stoppedAt);
  });

  it('stop waits for a run under way', async () => {
    let finished = false;
    const scheduler = createScheduler([{ name: 'work', everyMs: 0, run: () => new Promise<void>((r) => setTimeout(() => ((finished = true), r()), 50)) }], silentLog(), new Registry());
    void scheduler.runNow('work');
    await scheduler.stop();
    expect(finished).toBe(true);
  });
});
