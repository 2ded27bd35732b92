import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { createRequire } from 'node:module';
import { Gauge, type Registry } from 'prom-client';

// The plugin's own stores: Redis's counts for every replica, the local one for this process alone.
const require = createRequire(import.meta.url);
type StoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => FastifyRateLimitStore;
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as StoreCtor;
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as StoreCtor;

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * Counts in Redis while it answers, and in this process while it does not, so a Redis outage never switches the
 * limits off; each replica then enforces them alone until Redis is back.
 */
class RedisOrLocalStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
    private readonly redisReady: () => boolean,
  ) {}

  incr(key: string, callback: Counted, timeWindow: number, max: number): void {
    if (!this.redisReady()) return this.local.incr(key, callback, timeWindow, max);
    this.shared.incr(key, (error, result) => (error ? this.local.incr(key, callback, timeWindow, max) : callback(null, result)), timeWindow, max);
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new RedisOrLocalStore(this.shared.child(routeOptions), this.local.child(routeOptions), this.redisReady);
  }
}

export interface RateLimitState {
  /** Where the counters live now: 'redis' (shared by the replicas) or 'local' (this process, Redis unreachable). */
  counters(): 'redis' | 'local' | 'process';
}

/**
 * Counters live in Redis when REDIS_URL is set, so every replica counts together, falling back to this process while
 * Redis is unreachable; without REDIS_URL, in this process. Limits are declared per route (`app.rateLimit(...)` in a
 * preHandler); exceeding one answers 429 with code 514.
 */
export async function registerRateLimit(app: FastifyInstance, redisUrl: string | undefined): Promise<RateLimitState> {
  const redis = redisUrl
    ? new Redis(redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  // ioredis reconnects by itself; an error event without a listener would crash the process.
  redis?.on('error', () => {});
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  const redisReady = () => redis?.status === 'ready';
  const store = redis
    ? class extends RedisOrLocalStore {
        // No limit here uses continueExceeding or exponential back-off.
        constructor() {
          super(new RedisStore(false, false, redis, 'pago-online-rl:'), new LocalStore(false, false), redisReady);
        }
      }
    : undefined;
  await app.register(rateLimit, {
    global: false,
    ...(store ? { store } : {}),
    errorResponseBuilder: (_request, context) => ({ statusCode: 429, code: 'RATE_LIMITED', message: `retry in ${context.after}` }),
  });
  const counters = (): ReturnType<RateLimitState['counters']> => (!redis ? 'process' : redisReady() ? 'redis' : 'local');
  return { counters };
}

/** `pago_online_rate_limits_local`: 1 while Redis is unreachable and each replica counts alone. */
export function rateLimitGauge(registry: Registry, state: RateLimitState): void {
  new Gauge({
    name: 'pago_online_rate_limits_local',
    help: '1 while Redis is unreachable and each replica counts the rate limits alone',
    registers: [registry],
    collect() {
      this.set(state.counters() === 'local' ? 1 : 0);
    },
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

const TEN_MINUTES = 10 * 60_000;

/**
 * Limits for a call that costs real work (a PDF, an e-mail, a stored selection): so many per session, and so many per
 * client whatever sessions it opens, each per 10 minutes. `sessionOf` reads the session's token from the body.
 */
export function perSessionAndClient(app: FastifyInstance, name: string, perSession: number, perClient: number, sessionOf: (body: unknown) => unknown) {
  return allLimits(
    app.createRateLimit({ max: perClient, timeWindow: TEN_MINUTES, keyGenerator: (request) => `${name}-ip:${request.client}` }),
    app.createRateLimit({
      max: perSession,
      timeWindow: TEN_MINUTES,
      keyGenerator: (request) => {
        const token = sessionOf(request.body);
        return `${name}-session:${typeof token === 'string' ? token : request.client}`;
      },
    }),
  );
}
