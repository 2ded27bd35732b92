import { GUARDAR_LOG_PATH, GUARDAR_LOG_RESPONSE, scrubLogText } from '@pago/domain/call-guardarlog';
import { guardarLogOkSchema, guardarLogRequestSchema } from '@pago/domain/schemas/call-guardarlog';
import { CODIGO_OK } from '@pago/domain/call-seleccionar';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { allLimits } from '../../plugins/external/rate-limit';
import { appendAudit, BROWSER_REPORT_KIND } from '../../repositories/audit-repository';
import { envelopeResponses } from '../responses';

/**
 * Call 11 (spec §7.11): the browser's reports join the audit trail, scrubbed of personal data, for
 * BROWSER_LOG_RETENTION_DAYS; the scheduler prunes older ones hourly, off the request path.
 */
export async function auditoriaRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    GUARDAR_LOG_PATH,
    {
      schema: { body: guardarLogRequestSchema, response: envelopeResponses(GUARDAR_LOG_RESPONSE, guardarLogOkSchema) },
      config: { responseName: GUARDAR_LOG_RESPONSE },
      preHandler: allLimits(app.createRateLimit({ max: app.config.rateLimits.logPerIp, timeWindow: 60_000, keyGenerator: (request) => `guardarlog:${request.client}` })),
    },
    async (request) => {
      const log = request.body.guardarLogRequest;
      const rut = canonicalRut(log.rut);
      await appendAudit(app.database.db, {
        kind: BROWSER_REPORT_KIND,
        rutMasked: rut ? maskRut(rut) : null,
        requestId: request.id,
        detail: {
          plataforma: scrubLogText(log.idPlataforma),
          origen: scrubLogText(log.origenLlamada),
          destino: scrubLogText(log.destinoLlamada),
          nivel: log.nivelLog,
          detalle: scrubLogText(log.detalleLog),
        },
      });
      return { [GUARDAR_LOG_RESPONSE]: { codigo: CODIGO_OK } };
    },
  );
}
