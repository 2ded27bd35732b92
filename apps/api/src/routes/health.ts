import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const ok = await app.database.ping();
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'database unreachable' });
  });
}
