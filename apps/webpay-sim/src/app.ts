import Fastify, { type FastifyInstance } from 'fastify';

/**
 * Plays Transbank's Webpay Plus Mall on its own origin. This first slice answers its health route only; the REST
 * API and the hosted card form come with the card payment path.
 */
export function buildSimulator(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ status: 'ok', service: 'webpay-sim' }));
  return app;
}
