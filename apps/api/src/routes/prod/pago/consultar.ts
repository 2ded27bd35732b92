import { oneOrMany } from '@pago/domain/as-array';
import { CONSULTAR_PAGO_PATH, CONSULTAR_PAGO_RESPONSE } from '@pago/domain/call-consultar-pago';
import { consultarPagoOkSchema, consultarPagoRequestSchema } from '@pago/domain/schemas/call-consultar-pago';
import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeResponses } from '../../responses';

/** Call 7 (spec §7.7): the voucher of a paid transaction, to the session that made it only. */
export async function consultarPagoRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    CONSULTAR_PAGO_PATH,
    { schema: { body: consultarPagoRequestSchema, response: envelopeResponses(CONSULTAR_PAGO_RESPONSE, consultarPagoOkSchema) }, config: { responseName: CONSULTAR_PAGO_RESPONSE } },
    async (request) => {
      const { token, idTransaccion } = request.body.consultarPagoRequest;
      const result = await app.services.vouchers.query(token, idTransaccion);
      if (!result.ok) return errorEnvelope(CONSULTAR_PAGO_RESPONSE, result.codigo);
      return {
        [CONSULTAR_PAGO_RESPONSE]: {
          listaPago: { pago: oneOrMany(result.pagos) },
          ...(result.verificationCode ? { codigoVerificacion: result.verificationCode } : {}),
        },
      };
    },
  );
}
