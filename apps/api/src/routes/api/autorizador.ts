import {
  DECISION_PATH,
  DECISION_RESPONSE,
  ENROLAR_PATH,
  ENROLAR_RESPONSE,
  PENDIENTES_PATH,
  PENDIENTES_RESPONSE,
} from '@pago/domain/call-autorizador';
import {
  decisionOkSchema,
  decisionRequestSchema,
  enrolarOkSchema,
  enrolarRequestSchema,
  pendientesOkSchema,
  pendientesRequestSchema,
} from '@pago/domain/schemas/call-autorizador';
import { CODIGO_OK } from '@pago/domain/call-seleccionar';
import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { allLimits } from '../../plugins/external/rate-limit';
import { envelopeResponses } from '../responses';

/**
 * The mobile authoriser's device calls (docs/authoriser.md), on the member's listener: the cooperative's app enrols
 * its key, fetches the payments waiting for it and signs its decisions. A refusal answers 200 with the envelope's
 * error, as every call does; a malformed body 400.
 */
export async function autorizadorRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limit = (name: string) =>
    allLimits(app.createRateLimit({ max: app.config.rateLimits.authoriserPerIp, timeWindow: 60_000, keyGenerator: (request) => `autorizador-${name}:${request.client}` }));
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  r.post(
    ENROLAR_PATH,
    { schema: { body: enrolarRequestSchema, response: envelopeResponses(ENROLAR_RESPONSE, enrolarOkSchema) }, config: { responseName: ENROLAR_RESPONSE }, preHandler: limit('enrolar') },
    async (request, reply) => {
      const result = await app.services.authoriser.enrol(request.body.enrolarDispositivoRequest, request.id);
      if (!result.ok) return reply.code(result.codigo === '400' ? 400 : 200).send(errorEnvelope(ENROLAR_RESPONSE, result.codigo));
      return { [ENROLAR_RESPONSE]: { codigo: CODIGO_OK, dispositivo: result.dispositivo } };
    },
  );

  r.post(
    PENDIENTES_PATH,
    { schema: { body: pendientesRequestSchema, response: envelopeResponses(PENDIENTES_RESPONSE, pendientesOkSchema) }, config: { responseName: PENDIENTES_RESPONSE }, preHandler: limit('pendientes') },
    async (request, reply) => {
      noStore(reply);
      const result = await app.services.authoriser.pending(request.body.solicitudesPendientesRequest, request.id);
      if (!result.ok) return errorEnvelope(PENDIENTES_RESPONSE, result.codigo);
      return { [PENDIENTES_RESPONSE]: { codigo: CODIGO_OK, solicitudes: result.solicitudes } };
    },
  );

  r.post(
    DECISION_PATH,
    { schema: { body: decisionRequestSchema, response: envelopeResponses(DECISION_RESPONSE, decisionOkSchema) }, config: { responseName: DECISION_RESPONSE }, preHandler: limit('decision') },
    async (request) => {
      const result = await app.services.authoriser.decide(request.body.decidirSolicitudRequest, request.id);
      if (!result.ok) return errorEnvelope(DECISION_RESPONSE, result.codigo);
      return { [DECISION_RESPONSE]: { codigo: CODIGO_OK, decision: result.decision } };
    },
  );
}
