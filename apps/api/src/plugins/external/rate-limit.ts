import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';

/**
 * Counters live in Redis when REDIS_URL is set, so every replica counts together; otherwise in this process.
 * Limits are declared per route (`app.rateLimit(...)` in a preHandler); exceeding one answers 429 with code 514.
 */
export async function registerRateLimit(app: FastifyInstance, redisUrl: string | undefined): Promise<void> {
  const redis = redisUrl
    ? new Redis(redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'pago-online-rl:' } : {}),
    // A Redis outage must not take the payment service down with it.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({ statusCode: 429, code: 'RATE_LIMITED', message: `retry in ${context.after}` }),
  });
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * A preHandler that applies several limits to one request (the plugin's own handler runs only the first limit it
 * meets on a request). The first limit exceeded answers 429, which the error handler turns into code 514.
 */
export function allLimits(...limiters: Limiter[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    for (const limiter of limiters) {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(result.ttlInSeconds));
        throw Object.assign(new Error('rate limited'), { statusCode: 429 });
      }
    }
  };
}
