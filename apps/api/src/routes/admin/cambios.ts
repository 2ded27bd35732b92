import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeSchema, changesSchema, oneChangeSchema, type Change } from '@pago/domain/schemas/admin';
import { actorLabel } from '../../operator/access';
import type { ChangeRow } from '../../operator/four-eyes';
import { appendAudit } from '../../repositories/audit-repository';
import { envelopeResponses } from '../responses';

const RESPONSE = 'cambiosResponse';

export { changeSchema };

export function changeView(change: ChangeRow, viewerId?: string): Change {
  return {
    id: change.id,
    tipo: change.kind as Change['tipo'],
    objetivo: change.target,
    propuesta: change.payload,
    estado: change.status as Change['estado'],
    propuestoPor: change.makerName,
    decididoPor: change.checkerName,
    creado: change.createdAt,
    vence: change.expiresAt,
    decidido: change.decidedAt,
    resultado: change.result ?? null,
    propio: viewerId !== undefined && change.makerSubject === viewerId,
  };
}

const REFUSALS = {
  not_found: [404, 'Cambio no encontrado.'],
  decided: [409, 'El cambio ya fue decidido.'],
  expired: [409, 'El cambio venció sin aprobación.'],
  own: [403, 'Nadie aprueba ni rechaza su propio cambio (ni el de un token suyo): lo decide otro operador.'],
  own_roles: [403, 'Nadie decide un cambio de sus propios roles: lo decide otro administrador.'],
  machine: [403, 'Un cambio lo decide una persona en la consola, no un token.'],
  forbidden: [403, 'Su rol no permite decidir este cambio.'],
  apply_failed: [409, 'El cambio no pudo aplicarse'],
  unavailable: [503, 'Webpay o el core no respondió: el cambio sigue pendiente, apruébelo de nuevo en unos minutos.'],
} as const;

/** The approvals inbox: changes waiting for a second person, and the latest decided ones. */
export async function changesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/cambios',
    { schema: { response: envelopeResponses(RESPONSE, changesSchema) }, config: { responseName: RESPONSE, permiso: 'resumen.ver' } },
    async (request) => ({ [RESPONSE]: { cambios: (await app.services.fourEyes.list()).map((c) => changeView(c, request.actor?.persona)) } }),
  );

  for (const [action, approve] of [['aprobar', true], ['rechazar', false]] as const) {
    r.post(
      `/cambios/:id/${action}`,
      {
        schema: { params: z.object({ id: z.uuid() }), response: envelopeResponses(RESPONSE, oneChangeSchema) },
        // Each kind's own permission is checked by the service (four-eyes.ts) once the change is read.
        config: { responseName: RESPONSE, permiso: 'resumen.ver' },
      },
      async (request, reply) => {
        const outcome = await app.services.fourEyes.decide(request.actor!, request.params.id, approve, request.id);
        if (!outcome.ok) {
          const [status, message] = REFUSALS[outcome.reason];
          // A decision refused for who was deciding is evidence: the trail keeps it.
          if (status === 403) {
            await appendAudit(app.database.db, { kind: 'cambio.decision.rechazada', requestId: request.id, detail: { cambio: request.params.id, accion: action, motivo: outcome.reason, operador: actorLabel(request.actor!) } });
          }
          if (status === 503) reply.header('retry-after', '60');
          return reply.code(status).send(errorEnvelope(RESPONSE, status === 503 ? '503' : '400', outcome.message ? `${message}: ${outcome.message}` : message));
        }
        return { [RESPONSE]: { cambio: changeView(outcome.change, request.actor?.persona) } };
      },
    );
  }
}
