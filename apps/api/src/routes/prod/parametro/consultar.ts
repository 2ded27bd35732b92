import {
  CONSULTAR_PARAMETROS_PATH,
  CONSULTAR_PARAMETROS_RESPONSE,
  consultarParametrosRequestSchema,
} from '@pago/domain/call-parametros';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Call 1 (spec §7.1): the switches and settings the member's screens follow. */
export async function consultarParametrosRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    CONSULTAR_PARAMETROS_PATH,
    {
      schema: { body: consultarParametrosRequestSchema },
      config: { responseName: CONSULTAR_PARAMETROS_RESPONSE },
    },
    async () => ({
      [CONSULTAR_PARAMETROS_RESPONSE]: { listaParametros: { parametro: await app.services.parameters.list() } },
    }),
  );
}
