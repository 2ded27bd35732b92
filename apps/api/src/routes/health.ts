import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEFAULT_RESPONSE_NAME } from '../plugins/app/error-handler';
import type { RateLimitState } from '../plugins/external/rate-limit';
import { errorResponses } from './responses';

const errors = errorResponses(DEFAULT_RESPONSE_NAME);
const readiness = z.object({
  status: z.enum(['ready', 'degraded', 'database unreachable', 'core payment type missing']),
  rateLimits: z.enum(['redis', 'local', 'process']),
  /** The settings naming a payment type the core does not have, e.g. `CORE_WEBPAY_PAYMENT_TYPE_ID=999`. */
  missing: z.optional(z.array(z.string())),
});

/** What /ready knows of the configured payment types: the settings the core lacks, or null while not known. */
export interface PaymentTypeCheck {
  missing(): string[] | null;
}

/**
 * /health: the process answers. /ready: it can serve members. The database is required (503 without it); rate limits
 * counted in this process because Redis is unreachable still protect the service, so that is reported as
 * 'degraded' with 200, and a balancer keeps the replica (taking every replica out would stop the service). A
 * configured payment type the core answers it does not have is 503, by its setting's name; a core that does not
 * answer is not (its payments wait in the outbox).
 */
export async function healthRoutes(app: FastifyInstance, { rateLimits, paymentTypes }: { rateLimits: RateLimitState; paymentTypes: PaymentTypeCheck }): Promise<void> {
  app.get('/health', { schema: { response: { 200: z.object({ status: z.literal('ok') }), ...errors } } }, async () => ({ status: 'ok' }));
  app.get('/ready', { schema: { response: { 200: readiness, 503: readiness, ...errors } } }, async (_request, reply) => {
    const database = await app.database.ping();
    const counters = rateLimits.counters();
    if (!database) return reply.code(503).send({ status: 'database unreachable', rateLimits: counters });
    // A payment type the core does not have would refuse every payment of its kind: no member is sent here.
    const missing = paymentTypes.missing();
    if (missing && missing.length > 0) return reply.code(503).send({ status: 'core payment type missing', rateLimits: counters, missing });
    return { status: counters === 'local' ? 'degraded' : 'ready', rateLimits: counters };
  });
}
