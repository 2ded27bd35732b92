import { disponibilidadOkSchema } from '@pago/domain/schemas/answers';
import { AVAILABILITY_PATH, availabilityAt } from '@pago/domain/business-time';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import { errorResponses } from '../responses';

/**
 * Which families can be paid now, by the server's business clock, and when the closed ones open again: steps 1, 2
 * and 3 ask it, so a phone with a wrong clock shows what the server will take. Public: the hours are no secret.
 */
export async function disponibilidadRoute(app: FastifyInstance, options: { clock: Clock }): Promise<void> {
  app.get(
    AVAILABILITY_PATH,
    {
      schema: { response: { 200: disponibilidadOkSchema, ...errorResponses('disponibilidadResponse') } },
      preHandler: app.rateLimit({ max: app.config.rateLimits.payPerIp, timeWindow: 60_000, keyGenerator: (request) => `disponibilidad:${request.client}` }),
      config: { responseName: 'disponibilidadResponse' },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { disponibilidad: availabilityAt(options.clock()) };
    },
  );
}
