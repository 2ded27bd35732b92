import { appendFileSync } from 'node:fs';

/**
 * How hard the reliability suite pushes. `npm test` runs it with these small defaults; `npm run test:reliability`
 * (scripts/reliability.mjs) sets the environment to the full sizes and collects the figures into one table.
 */
function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export const RELIABILITY = {
  /** fast-check runs per endpoint and per kind of input. */
  fuzzRuns: positive('RELIABILITY_FUZZ_RUNS', 6),
  /** Concurrent payers in the load test. */
  payers: positive('RELIABILITY_PAYERS', 24),
  /** SIGKILL-and-restart rounds of the crash test. */
  killRounds: positive('RELIABILITY_KILL_ROUNDS', 1),
  /** Payers per fault of the high-availability test (three faults). */
  haPayers: positive('RELIABILITY_HA_PAYERS', 12),
  /** Payers per kill round. */
  killPayers: positive('RELIABILITY_KILL_PAYERS', 16),
  /** Seconds a fault (database cut, Webpay down) lasts. */
  outageSeconds: positive('RELIABILITY_OUTAGE_SECONDS', 2),
  /** Seconds a network partition between the API processes and PostgreSQL lasts (packets dropped, no reset). */
  partitionSeconds: positive('RELIABILITY_PARTITION_SECONDS', process.env.RELIABILITY_FULL === '1' ? 15 : 7),
  /** The full run (npm run test:reliability): every fault variant, and real waits instead of short cuts. */
  full: process.env.RELIABILITY_FULL === '1',
  /** Where every test file appends its figures (JSON lines); unset: figures are not kept. */
  reportFile: process.env.RELIABILITY_REPORT,
};

/** What one part of the suite did; the runner sums them per section. */
export interface Figures {
  section: string;
  database?: string;
  inputsTried?: number;
  faultsInjected?: number;
  requestsServed?: number;
  responses5xx?: number;
  paymentsPaid?: number;
  invariantViolations?: number;
  seconds?: number;
  notes?: string;
}

export function recordFigures(figures: Figures): void {
  if (!RELIABILITY.reportFile) return;
  appendFileSync(RELIABILITY.reportFile, `${JSON.stringify({ ...figures, at: new Date().toISOString() })}\n`);
}

/** Counts what the tests sent and what came back, by status class. */
export class RequestTally {
  total = 0;
  byClass: Record<string, number> = {};
  failures = 0;

  private readonly latencies: number[] = [];

  count(status: number | 'network', ms?: number): void {
    if (ms !== undefined) this.latencies.push(ms);
    this.total++;
    const key = status === 'network' ? 'network' : `${Math.floor(status / 100)}xx`;
    this.byClass[key] = (this.byClass[key] ?? 0) + 1;
  }

  get served(): number {
    return this.total - (this.byClass.network ?? 0);
  }

  get errors5xx(): number {
    return this.byClass['5xx'] ?? 0;
  }

  /** Latency percentile of the answered requests, in milliseconds. */
  percentile(p: number): number {
    if (this.latencies.length === 0) return 0;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
  }

  get slowest(): number {
    return this.latencies.length ? Math.round(Math.max(...this.latencies)) : 0;
  }
}
