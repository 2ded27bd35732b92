import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { countOverdue, countSetAside } from '../../repositories/webpay-attempt-repository';
import { pendingStats } from '../../repositories/core-operation-repository';
import { oldestOpenDay } from '../../repositories/day-close-repository';

export interface Metrics {
  registry: Registry;
  payments: Counter<'method' | 'outcome'>;
  /** Reconciliation runs that failed, and attempts whose reconciliation failed. */
  reconciliationFailures: Counter;
  /** The last comparison with the core's books: differences on today's and yesterday's business day. */
  coreMismatches: Gauge<'dia'>;
}

/**
 * Prometheus metrics (served by serveMetrics): request rate and latency per route, payments by method and outcome, and the card
 * payments the reconciliation has not settled. One registry per app, so that tests and replicas never share counters.
 */
export function registerMetrics(app: FastifyInstance): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const payments = new Counter({
    name: 'pago_online_payments_total',
    help: 'Payment outcomes by method',
    labelNames: ['method', 'outcome'],
    registers: [registry],
  });
  // Read from the database at each scrape, so they stay true whatever the last reconciliation run did.
  const db = app.database.db;
  const settleAfterSeconds = app.config.webpay.settleAfterSeconds;
  new Gauge({
    name: 'pago_online_webpay_reconciliation_backlog',
    help: 'Card payments pending past the form lifetime',
    registers: [registry],
    async collect() {
      await readInto(this, () => countOverdue(db, settleAfterSeconds));
    },
  });
  new Gauge({
    name: 'pago_online_webpay_set_aside',
    help: 'Card payments Webpay charged that could be neither applied nor refunded: an operator settles them',
    registers: [registry],
    async collect() {
      await readInto(this, () => countSetAside(db));
    },
  });
  // The outbox of the core: what it has not acknowledged yet, how long the oldest has waited, and credits it refused.
  // Read once per scrape by the first gauge, which sets the other two (the registry collects in this order).
  const oldestPosting = new Gauge({ name: 'pago_online_core_postings_oldest_seconds', help: 'Age of the oldest operation the core has not acknowledged yet', registers: [] });
  const refusedPostings = new Gauge({ name: 'pago_online_core_postings_refused', help: 'Card credits the core refused: money Webpay took that an operator must post again or refund', registers: [] });
  new Gauge({
    name: 'pago_online_core_postings_pending',
    help: 'Operations asked of the core banking system and not yet acknowledged (card credits, unanswered debits)',
    registers: [registry],
    async collect() {
      await readInto(this, async () => {
        const stats = await pendingStats(db);
        oldestPosting.set(Math.round(stats.oldestSeconds));
        refusedPostings.set(stats.refused);
        return stats.pending;
      });
    },
  });
  // The business days finance has not closed (decision 049): a weekend's days wait for Monday; more is a backlog.
  new Gauge({
    name: 'pago_online_day_close_oldest_open_days',
    help: 'Days since the oldest business day with paid payments that is not closed (0: every past day closed), within 90 days',
    registers: [registry],
    async collect() {
      await readInto(this, async () => {
        // Business time (the sandbox's clock where it is moved), as the close itself reads it.
        const today = app.services.dayClose.today();
        const oldest = await oldestOpenDay(db, today);
        return oldest ? Math.round((Date.parse(today) - Date.parse(oldest)) / 86_400_000) : 0;
      });
    },
  });
  registry.registerMetric(oldestPosting);
  registry.registerMetric(refusedPostings);
  const reconciliationFailures = new Counter({
    name: 'reconciliation_failures_total',
    help: 'Failed reconciliation runs, and card payments whose reconciliation failed',
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the raw URL: ids in paths must not become label values.
    const route = request.routeOptions.url ?? 'not_found';
    duration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  const coreMismatches = new Gauge({
    name: 'pago_online_core_reconciliation_differences',
    help: "Differences between our operations and the core's books at the last comparison, by business day (hoy, ayer)",
    labelNames: ['dia'],
    registers: [registry],
  });
  return { registry, payments, reconciliationFailures, coreMismatches };
}

/** /metrics, on the operator's listener (restrict it to the scraper). */
export function serveMetrics(on: FastifyInstance, registry: Registry): void {
  on.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

/** A scrape while the database is away keeps the gauge's last value rather than failing /metrics. */
async function readInto(gauge: Gauge, read: () => Promise<number>): Promise<void> {
  try {
    gauge.set(await read());
  } catch {
    // /ready reports the database; the next scrape reads again.
  }
}
