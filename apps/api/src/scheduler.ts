import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { loggableError } from './loggable-error';

/** A piece of background work every replica runs; the work itself shares out rows (SKIP LOCKED, leases). */
export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

export type Scheduler = ReturnType<typeof createScheduler>;

/**
 * The one place background work runs: each job on its own interval, never twice at once in a process (a run still
 * going when the next tick comes makes that tick skip), with runs, failures, duration and last success as metrics.
 */
export function createScheduler(jobs: Job[], log: FastifyBaseLogger, registry: Registry) {
  const runs = new Counter({ name: 'pago_online_job_runs_total', help: 'Background job runs by outcome', labelNames: ['job', 'outcome'], registers: [registry] });
  const duration = new Histogram({ name: 'pago_online_job_duration_seconds', help: 'Background job run time', labelNames: ['job'], registers: [registry], buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60] });
  const lastSuccess = new Gauge({ name: 'pago_online_job_last_success_timestamp_seconds', help: 'When each background job last ran through', labelNames: ['job'], registers: [registry] });
  const running = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];

  function runNow(name: string): Promise<void> {
    const job = jobs.find((j) => j.name === name);
    if (!job) return Promise.reject(new Error(`no job named ${name}`));
    const under = running.get(name);
    if (under) return under;
    const end = duration.startTimer({ job: name });
    const run = job
      .run()
      .then(() => {
        runs.inc({ job: name, outcome: 'ok' });
        lastSuccess.set({ job: name }, Date.now() / 1000);
      })
      .catch((error: unknown) => {
        runs.inc({ job: name, outcome: 'failed' });
        log.error({ job: name, error: loggableError(error) }, 'background job failed');
      })
      .finally(() => {
        end();
        running.delete(name);
      });
    running.set(name, run);
    return run;
  }

  return {
    jobs: () => jobs.map((j) => j.name),
    runNow,
    /** Starts every job with a positive interval; the timers alone keep no process alive. */
    start(): void {
      for (const job of jobs) {
        if (job.everyMs <= 0) continue;
        const timer = setInterval(() => void runNow(job.name), job.everyMs);
        timer.unref();
        timers.push(timer);
      }
    },
    /** Stops the timers and waits for the runs under way, so that the database can be closed after them. */
    async stop(): Promise<void> {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
