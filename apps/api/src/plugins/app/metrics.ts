import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  payments: Counter<'method' | 'outcome'>;
  reconciliationBacklog: Gauge;
}

/**
 * Prometheus metrics at /metrics: request rate and latency per route, payments by method and outcome, and the
 * Webpay reconciliation backlog. One registry per app, so that tests and replicas never share counters.
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
  const reconciliationBacklog = new Gauge({
    name: 'pago_online_webpay_reconciliation_backlog',
    help: 'Card payments pending past the form lifetime, as of the last reconciliation run',
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the raw URL: ids in paths must not become label values.
    const route = request.routeOptions.url ?? 'not_found';
    duration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return { registry, payments, reconciliationBacklog };
}
