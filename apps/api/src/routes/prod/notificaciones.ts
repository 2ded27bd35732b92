import {
  COMPROBANTE_PDF_PATH,
  ENVIAR_COMPROBANTE_PATH,
  ENVIAR_COMPROBANTE_RESPONSE,
} from '@pago/domain/call-notificaciones';
import {
  comprobantePdfRequestSchema,
  enviarComprobanteOkSchema,
  enviarComprobanteRequestSchema,
} from '@pago/domain/schemas/call-notificaciones';
import { CODIGO_OK } from '@pago/domain/call-seleccionar';
import { errorEnvelope } from '@pago/domain/envelope';
import { verificacionOkSchema } from '@pago/domain/schemas/answers';
import { readVerificationCode, VERIFICAR_COMPROBANTE_PATH } from '@pago/domain/voucher-verification';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { perSessionAndClient } from '../../plugins/external/rate-limit';
import { renderVoucherPdf, verificationOf, VOUCHER_FILENAME } from '../../services/voucher-document';
import { authorisedWithName } from '@pago/domain/voucher';
import { documentOf, envelopeResponses, errorResponses } from '../responses';

/** Call 8 (the voucher by e-mail) and the voucher's PDF. */
export async function notificacionesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limits = app.config.rateLimits;

  r.post(
    ENVIAR_COMPROBANTE_PATH,
    {
      schema: { body: enviarComprobanteRequestSchema, response: envelopeResponses(ENVIAR_COMPROBANTE_RESPONSE, enviarComprobanteOkSchema) },
      config: { responseName: ENVIAR_COMPROBANTE_RESPONSE },
      // A voucher can be re-sent, not turned into a mail cannon.
      preHandler: perSessionAndClient(app, 'mail', limits.mailPerSession, limits.mailPerIp, (body) =>
        (body as { enviarComprobantePagoRequest?: { token?: unknown } } | undefined)?.enviarComprobantePagoRequest?.token,
      ),
    },
    async (request) => {
      const { token, rut, correo } = request.body.enviarComprobantePagoRequest;
      const expected = `Basic ${Buffer.from(`${rut}:${token}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return errorEnvelope(ENVIAR_COMPROBANTE_RESPONSE, '476');
      const result = await app.services.notifications.sendVoucher(token, rut, correo, request.id);
      if (!result.ok) return errorEnvelope(ENVIAR_COMPROBANTE_RESPONSE, result.codigo);
      return { [ENVIAR_COMPROBANTE_RESPONSE]: { codigo: CODIGO_OK, descripcion: result.descripcion } };
    },
  );

  const pdfLimits = perSessionAndClient(app, 'pdf', limits.pdfPerSession, limits.pdfPerIp, (body) => (body as { token?: unknown } | undefined)?.token);
  r.post(COMPROBANTE_PDF_PATH, { schema: { body: comprobantePdfRequestSchema, response: { 200: documentOf('application/pdf', 'The voucher as a PDF'), ...errorResponses('comprobantePdfResponse') } }, config: { responseName: 'comprobantePdfResponse' }, preHandler: pdfLimits }, async (request, reply) => {
    const result = await app.services.vouchers.query(request.body.token, request.body.idTransaccion);
    if (!result.ok) return reply.code(result.codigo === '476' ? 401 : 404).send(errorEnvelope('comprobantePdfResponse', result.codigo));
    const pdf = await renderVoucherPdf({
      cooperative: app.config.productName,
      pagos: result.pagos,
      authorisedWith: authorisedWithName(result.factor, app.config.productSlug),
      verification: verificationOf(app.config.publicBaseUrl, result.verificationCode),
    });
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${VOUCHER_FILENAME}"`)
      .header('cache-control', 'no-store')
      .send(pdf);
  });
}

/**
 * Beyond the spec: the public proof of a voucher, for whoever holds its code (the voucher's QR). Rate-limited per
 * client, and a code is 100 random bits, so trying codes finds nothing.
 */
export async function verificarComprobanteRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    VERIFICAR_COMPROBANTE_PATH,
    {
      schema: {
        params: z.object({ codigo: z.string().max(64) }),
        response: { 200: verificacionOkSchema, ...errorResponses('verificacionResponse') },
      },
      config: { responseName: 'verificacionResponse' },
      preHandler: app.rateLimit({ max: app.config.rateLimits.verifyPerIp, timeWindow: 60_000, keyGenerator: (request) => `verificar:${request.client}` }),
    },
    async (request, reply) => {
      const code = readVerificationCode(request.params.codigo);
      const result = code ? await app.services.vouchers.verify(code) : null;
      if (!result?.ok) return reply.code(404).send(errorEnvelope('verificacionResponse', '516'));
      reply.header('cache-control', 'no-store');
      return { verificacion: result.verificacion };
    },
  );
}
