import {
  CONSULTAR_PARAMETROS_PATH,
  CONSULTAR_PARAMETROS_RESPONSE,
  consultarParametrosRequestSchema,
} from '@pago/domain/call-parametros';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Call 1 (spec §7.1): the switches and settings the member's screens follow. */
export async function consultarParametrosRoute(app: FastifyInstance): Promise<void> {
  // Every screen asks for this: the answer is serialised once per set of parameters the service hands out (the same
  // array while nothing changes), not on every call.
  const bodies = new WeakMap<object, string>();
  app.withTypeProvider<ZodTypeProvider>().post(
    CONSULTAR_PARAMETROS_PATH,
    {
      schema: { body: consultarParametrosRequestSchema },
      config: { responseName: CONSULTAR_PARAMETROS_RESPONSE },
    },
    async (_request, reply) => {
      const parametro = await app.services.parameters.list();
      let body = bodies.get(parametro);
      if (body === undefined) {
        body = JSON.stringify({ [CONSULTAR_PARAMETROS_RESPONSE]: { listaParametros: { parametro } } });
        bodies.set(parametro, body);
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
