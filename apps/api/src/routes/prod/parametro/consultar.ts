import { CONSULTAR_PARAMETROS_PATH, CONSULTAR_PARAMETROS_RESPONSE } from '@pago/domain/call-parametros';
import { consultarParametrosOkSchema, consultarParametrosRequestSchema } from '@pago/domain/schemas/call-parametros';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeResponses } from '../../responses';

/** Call 1 (spec §7.1): the switches and settings the member's screens follow. */
export async function consultarParametrosRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    CONSULTAR_PARAMETROS_PATH,
    {
      schema: { body: consultarParametrosRequestSchema, response: envelopeResponses(CONSULTAR_PARAMETROS_RESPONSE, consultarParametrosOkSchema) },
      config: { responseName: CONSULTAR_PARAMETROS_RESPONSE },
    },
    async () => {
      const parametro = await app.services.parameters.list();
      return { [CONSULTAR_PARAMETROS_RESPONSE]: { listaParametros: { parametro } } };
    },
  );
}
