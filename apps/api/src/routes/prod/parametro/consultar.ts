import {
  CONSULTAR_PARAMETROS_PATH,
  CONSULTAR_PARAMETROS_RESPONSE,
  consultarParametrosOkSchema,
  consultarParametrosRequestSchema,
} from '@pago/domain/call-parametros';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeResponses } from '../../responses';

/** Call 1 (spec §7.1): the switches and settings the member's screens follow. */
export async function consultarParametrosRoute(app: FastifyInstance): Promise<void> {
  // Every screen asks for this: the answer is serialised (with its response schema) once per set of parameters the
  // service hands out (the same array while nothing changes), not on every call.
  const bodies = new WeakMap<object, string>();
  app.withTypeProvider<ZodTypeProvider>().post(
    CONSULTAR_PARAMETROS_PATH,
    {
      schema: { body: consultarParametrosRequestSchema, response: envelopeResponses(CONSULTAR_PARAMETROS_RESPONSE, consultarParametrosOkSchema) },
      config: { responseName: CONSULTAR_PARAMETROS_RESPONSE, boundedByThePool: true },
    },
    async (_request, reply) => {
      const parametro = await app.services.parameters.list();
      const answer = { [CONSULTAR_PARAMETROS_RESPONSE]: { listaParametros: { parametro } } };
      let body = bodies.get(parametro);
      if (body === undefined) {
        body = String(reply.serializeInput(answer, '200'));
        bodies.set(parametro, body);
      }
      const serialised = body;
      return reply.serializer(() => serialised).send(answer);
    },
  );
}
