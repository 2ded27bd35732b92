import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEFAULT_RESPONSE_NAME } from '../plugins/app/error-handler';
import type { RateLimitState } from '../plugins/external/rate-limit';
import { errorResponses } from './responses';

const errors = errorResponses(DEFAULT_RESPONSE_NAME);
const readiness = z.object({ status: z.enum(['ready', 'degraded', 'database unreachable']), rateLimits: z.enum(['redis', 'local', 'process']) });

/**
 * /health: the process answers. /ready: it can serve members. The database is required (503 without it); rate limits
 * counted in this process because Redis is unreachable still protect the service, so that is reported as
 * 'degraded' with 200, and a balancer keeps the replica (taking every replica out would stop the service).
 */
export async function healthRoutes(app: FastifyInstance, { rateLimits }: { rateLimits: RateLimitState }): Promise<void> {
  app.get('/health', { schema: { response: { 200: z.object({ status: z.literal('ok') }), ...errors } } }, async () => ({ status: 'ok' }));
  app.get('/ready', { schema: { response: { 200: readiness, 503: readiness, ...errors } } }, async (_request, reply) => {
    const database = await app.database.ping();
    const counters = rateLimits.counters();
    if (!database) return reply.code(503).send({ status: 'database unreachable', rateLimits: counters });
    return { status: counters === 'local' ? 'degraded' : 'ready', rateLimits: counters };
  });
}
