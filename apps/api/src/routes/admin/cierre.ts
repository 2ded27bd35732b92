import { closeRefusal, CLOSE_REFUSALS } from '@pago/domain/day-close';
import { isWireDate } from '@pago/domain/dates';
import { errorEnvelope } from '@pago/domain/envelope';
import { dayCloseSchema } from '@pago/domain/schemas/admin';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { closeOf } from '../../repositories/day-close-repository';
import { pendingChangeOf } from '../../repositories/operator-change-repository';
import { dayCloseCsv } from '../../services/day-close-service';
import { documentOf, envelopeResponses, errorResponses, proposedResponse } from '../responses';
import { changeView } from './cambios';

const RESPONSE = 'cierreResponse';
/** A business day as the accountant writes it, and a real one (no 30 February). */
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'fecha AAAA-MM-DD')
  .refine((d) => isWireDate(d.replaceAll('-', '')), 'fecha inexistente');
const unavailable = 'El core no respondió: el cierre necesita sus libros. Inténtelo de nuevo en unos minutos.';

/**
 * The day's close, three-way (decision 049): every payment of a business day with our side, Webpay's and the core's,
 * the totals of each, the differences by cause; as JSON, as an accountant's CSV, and closed by two finance operators.
 */
export async function dayCloseRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const closes = app.services.dayClose;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/cierre',
    { schema: { querystring: z.object({ fecha: isoDay }).strict(), response: envelopeResponses(RESPONSE, dayCloseSchema) }, config: { responseName: RESPONSE, permiso: 'cierre.ver' } },
    async (request, reply) => {
      const { fecha } = request.query;
      const view = await closes.view(fecha);
      if ('unavailable' in view) {
        request.log.warn({ detail: view.unavailable }, 'day close: the core did not answer');
        return reply.code(503).header('retry-after', '60').send(errorEnvelope(RESPONSE, '503', unavailable));
      }
      const pending = await pendingChangeOf(db, 'cierre_dia', fecha);
      return { [RESPONSE]: { ...view, propuesta: pending ? changeView(pending, request.actor!.persona) : null } };
    },
  );

  r.get(
    '/cierre/csv',
    { schema: { querystring: z.object({ fecha: isoDay }).strict(), response: { 200: documentOf('text/csv', "The day's close as CSV"), ...errorResponses(RESPONSE) } }, config: { responseName: RESPONSE, permiso: 'cierre.ver' } },
    async (request, reply) => {
      const { fecha } = request.query;
      const compared = await closes.compare(fecha);
      if ('unavailable' in compared) return reply.code(503).header('retry-after', '60').send(errorEnvelope(RESPONSE, '503', unavailable));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="cierre-${fecha}.csv"`)
        .send(dayCloseCsv(fecha, compared.comparison));
    },
  );

  // Proposed by one finance operator, approved by another through the approvals (/admin/cambios/:id/aprobar), which
  // compares the day again: a day with a difference is refused at both steps.
  r.post(
    '/cierre/:fecha/firmar',
    {
      schema: {
        params: z.object({ fecha: isoDay }),
        body: z.object({ motivo: z.string().trim().min(5, 'al menos 5 caracteres').max(300) }).strict(),
        response: { ...errorResponses(RESPONSE), ...proposedResponse(RESPONSE, 'Proposed: the day closes once another finance operator approves it') },
      },
      config: { responseName: RESPONSE, permiso: 'cierre.firmar' },
    },
    async (request, reply) => {
      const { fecha } = request.params;
      if ((await closeOf(db, fecha))?.status === 'cerrado') return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'El día ya está cerrado.'));
      const compared = await closes.compare(fecha);
      if ('unavailable' in compared) return reply.code(503).header('retry-after', '60').send(errorEnvelope(RESPONSE, '503', unavailable));
      const refusal = closeRefusal(fecha, closes.today(), compared.comparison);
      if (refusal) return reply.code(409).send(errorEnvelope(RESPONSE, '400', `${CLOSE_REFUSALS[refusal]}.`));
      const { comparison } = compared;
      const proposed = await app.services.fourEyes.propose(request.actor!, 'cierre_dia', fecha, { fecha, motivo: request.body.motivo, lineas: comparison.lineas.length }, request.id);
      if (!proposed.ok) return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'Ya hay un cierre de este día esperando aprobación.'));
      return reply.code(202).send({ [RESPONSE]: { cambio: changeView(proposed.change, request.actor!.persona) } });
    },
  );
}
