import { CODIGO_OK, SELECCIONAR_PRODUCTO_PATH, SELECCIONAR_PRODUCTO_RESPONSE } from '@pago/domain/call-seleccionar';
import { seleccionarProductoOkSchema, seleccionarProductoRequestSchema } from '@pago/domain/schemas/call-seleccionar';
import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { perSessionAndClient } from '../../../plugins/external/rate-limit';
import { envelopeResponses } from '../../responses';

/** Call 3 (spec §7.3). */
export async function seleccionarProductoRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    SELECCIONAR_PRODUCTO_PATH,
    {
      schema: { body: seleccionarProductoRequestSchema, response: envelopeResponses(SELECCIONAR_PRODUCTO_RESPONSE, seleccionarProductoOkSchema) },
      config: { responseName: SELECCIONAR_PRODUCTO_RESPONSE },
      // Each selection stores a transaction: bounded per session and per client.
      preHandler: perSessionAndClient(app, 'seleccionar', app.config.rateLimits.selectPerSession, app.config.rateLimits.selectPerIp, (body) =>
        (body as { seleccionarProductoRequest?: { token?: unknown } } | undefined)?.seleccionarProductoRequest?.token,
      ),
    },
    async (request) => {
      const result = await app.services.selection.select(request.body.seleccionarProductoRequest, request.id);
      if (!result.ok) return errorEnvelope(SELECCIONAR_PRODUCTO_RESPONSE, result.codigo);
      return {
        [SELECCIONAR_PRODUCTO_RESPONSE]: { codigo: CODIGO_OK, idTransaccion: result.idTransaccion, montoTotal: result.total },
      };
    },
  );
}
