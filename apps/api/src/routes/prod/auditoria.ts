import { GUARDAR_LOG_PATH, GUARDAR_LOG_RESPONSE, guardarLogRequestSchema, scrubLogText } from '@pago/domain/call-guardarlog';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { allLimits } from '../../plugins/external/rate-limit';
import { appendAudit } from '../../repositories/audit-repository';

/** Call 11 (spec §7.11): the browser's reports join the append-only audit trail, scrubbed of personal data. */
export async function auditoriaRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    GUARDAR_LOG_PATH,
    {
      schema: { body: guardarLogRequestSchema },
      config: { responseName: GUARDAR_LOG_RESPONSE },
      preHandler: allLimits(app.createRateLimit({ max: 120, timeWindow: 60_000, keyGenerator: (request) => `guardarlog:${request.ip}` })),
    },
    async (request) => {
      const log = request.body.guardarLogRequest;
      const rut = canonicalRut(log.rut);
      await appendAudit(app.database.db, {
        kind: 'navegador.log',
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
      return { [GUARDAR_LOG_RESPONSE]: { codigo: '200' } };
    },
  );
}
