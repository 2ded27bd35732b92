import { errorEnvelope } from '@pago/domain/envelope';
import { actorLabel, registerAccess } from '../../operator/access';
import { needsSecondPerson } from '../../operator/four-eyes';
import { checkParameter } from '../../services/parameters-service';
import { recordReason } from '../../repositories/audit-repository';
import { changeView } from './cambios';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parameterChangedSchema, parametersSchema } from '@pago/domain/schemas/admin';
import { envelopeResponses, proposedResponse } from '../responses';
import { operationsRoutes } from './operaciones';
import { consoleRoutes } from './consola';
import { dayCloseRoutes } from './cierre';

const RESPONSE = 'parametrosResponse';

const parametersList = envelopeResponses(RESPONSE, parametersSchema);
const parameterChanged = {
  ...envelopeResponses(RESPONSE, parameterChangedSchema),
  ...proposedResponse(RESPONSE, 'Proposed: applies once another operator approves it'),
};

/**
 * The operator's API: a machine's bearer token (the bootstrap ADMIN_TOKEN or an issued one) or an operator's console
 * session, and the permission each route names (operator/access.ts, operator/roles.ts).
 */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  registerAccess(app, { responseName: RESPONSE, consoleOrigin: new URL(app.config.operatorConsole.baseUrl).origin });

  await app.register(operationsRoutes);
  await app.register(consoleRoutes);
  await app.register(dayCloseRoutes);

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/parametros', { schema: { response: parametersList }, config: { responseName: RESPONSE, permiso: 'parametros.ver' } }, async () => {
    const rows = await app.services.parameters.listWithDates();
    return {
      [RESPONSE]: {
        parametros: rows.map((row) => ({ nombre: row.nombre, valor: row.valor, actualizado: row.updatedAt })),
      },
    };
  });

  r.put(
    '/parametros/:nombre',
    {
      schema: {
        params: z.object({ nombre: z.string().min(1).max(64) }),
        body: z.object({ valor: z.string().max(200), motivo: z.string().trim().min(5, 'al menos 5 caracteres').max(300).optional() }).strict(),
        response: parameterChanged,
      },
      config: { responseName: RESPONSE, permiso: 'parametros.cambiar' },
    },
    async (request, reply) => {
      const actor = request.actor!;
      const { nombre } = request.params;
      const { valor, motivo } = request.body;
      // A person says why (the console asks in its confirmation); the CLI's token may. It stays in the audit trail.
      if (!motivo && actor.kind === 'operador') return reply.code(400).send(errorEnvelope(RESPONSE, '400', 'Indique el motivo (al menos 5 caracteres): queda en el registro de auditoría.'));
      recordReason(motivo);
      // What stops payments or moves money waits for a second operator; the bootstrap token (decision 034) applies.
      if (needsSecondPerson(nombre) && !(actor.kind === 'maquina' && actor.bootstrap)) {
        const checked = checkParameter(nombre, valor);
        if (!checked.ok && checked.reason === 'unknown') return reply.code(404).send(errorEnvelope(RESPONSE, '400', `Parámetro desconocido: ${nombre}`));
        if (!checked.ok) return reply.code(400).send(errorEnvelope(RESPONSE, '400', `Valor inválido para ${nombre}: ${checked.message}`));
        const anterior = (await app.services.parameters.listWithDates()).find((row) => row.nombre === nombre)?.valor ?? null;
        const proposed = await app.services.fourEyes.propose(actor, 'parametro', nombre, { valor, anterior, ...(motivo && { motivo }) }, request.id);
        if (!proposed.ok) return reply.code(409).send(errorEnvelope(RESPONSE, '400', `Ya hay un cambio de ${nombre} esperando aprobación.`));
        return reply.code(202).send({ [RESPONSE]: { cambio: changeView(proposed.change, actor.persona) } });
      }
      const result = await app.services.parameters.update(nombre, valor, request.id, { operador: actorLabel(actor) });
      if (!result.ok && result.reason === 'unknown') {
        return reply.code(404).send(errorEnvelope(RESPONSE, '400', `Parámetro desconocido: ${request.params.nombre}`));
      }
      if (!result.ok) {
        return reply.code(400).send(errorEnvelope(RESPONSE, '400', `Valor inválido para ${request.params.nombre}: ${result.message}`));
      }
      request.log.info({ parametro: result.nombre }, 'parameter updated');
      return { [RESPONSE]: { nombre: result.nombre, valor: result.valor, anterior: result.anterior } };
    },
  );
}
