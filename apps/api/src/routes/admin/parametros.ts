import { errorEnvelope } from '@pago/domain/envelope';
import { allLimits } from '../../plugins/external/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { envelopeResponses } from '../responses';
import { operationsRoutes } from './operaciones';

const RESPONSE = 'parametrosResponse';

const parametersList = envelopeResponses(
  RESPONSE,
  z.object({ parametros: z.array(z.object({ nombre: z.string(), valor: z.string(), actualizado: z.iso.datetime() })) }),
);
const parameterChanged = envelopeResponses(RESPONSE, z.object({ nombre: z.string(), valor: z.string(), anterior: z.string() }));

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Operator's API: `Authorization: Bearer $ADMIN_TOKEN` on every call. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const expected = digest(app.config.adminToken);
  // Only wrong tokens count, per address: the operator's own token is never refused for someone else's guesses on
  // the same address. The token (16+ random characters) is what resists guessing; the limit bounds what guesses cost.
  const wrongTokens = allLimits(app.createRateLimit({ max: app.config.rateLimits.adminPerIp, timeWindow: 60_000, keyGenerator: (request) => `admin-wrong:${request.ip}` }));
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    // Compare digests so the check takes the same time whatever the length or prefix of the guess.
    if (token && timingSafeEqual(digest(token), expected)) return;
    // Past the limit: 429 (514) with Retry-After, and no log line per guess.
    await wrongTokens(request, reply);
    request.log.warn('admin call refused: bad or missing bearer token');
    // Under the called route's own response name (the operations' too), as its other errors are.
    return reply.code(401).send(errorEnvelope(request.routeOptions.config?.responseName ?? RESPONSE, '400', 'No autorizado.'));
  });

  await app.register(operationsRoutes);

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/parametros', { schema: { response: parametersList }, config: { responseName: RESPONSE } }, async () => {
    const rows = await app.services.parameters.listWithDates();
    return {
      [RESPONSE]: {
        parametros: rows.map((row) => ({ nombre: row.nombre, valor: row.valor, actualizado: row.updatedAt.toISOString() })),
      },
    };
  });

  r.put(
    '/parametros/:nombre',
    {
      schema: {
        params: z.object({ nombre: z.string().min(1).max(64) }),
        body: z.object({ valor: z.string().max(200) }).strict(),
        response: parameterChanged,
      },
      config: { responseName: RESPONSE },
    },
    async (request, reply) => {
      const result = await app.services.parameters.update(request.params.nombre, request.body.valor, request.id);
      if (!result.ok && result.reason === 'unknown') {
        return reply.code(404).send(errorEnvelope(RESPONSE, '400', `Parámetro desconocido: ${request.params.nombre}`));
      }
      if (!result.ok) {
        return reply.code(400).send(errorEnvelope(RESPONSE, '400', `Valor inválido para ${request.params.nombre}: ${result.message}`));
      }
      request.log.info({ parametro: result.nombre }, 'parameter updated');
      return { [RESPONSE]: { nombre: result.nombre, valor: result.valor, anterior: result.anterior } };
    },
  );
}
