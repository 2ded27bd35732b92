import { CODIGO_OK } from '@pago/domain/call-seleccionar';
import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditEventsSchema,
  auditKindsSchema,
  codigoHechoSchema,
  coreReportSchema,
  devicesSchema,
  enrolmentCodeSchema,
  importReportSchema,
  transactionViewSchema,
} from '@pago/domain/schemas/admin';
import { createAdminService } from '../../services/admin-service';
import { createImportService } from '../../services/import-service';
import { isWireDate } from '@pago/domain/dates';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import { auditKinds, filteredAudit, type AuditFilter } from '../../repositories/audit-repository';
import { reasonBody, reasonRefused } from './reason';
import { toCsv } from '../../services/csv';
import { readLoadWithCut } from '../../cli/import-file';
import { findMemberByRut } from '../../repositories/member-repository';
import { documentOf, envelopeResponses, errorResponses, proposedResponse } from '../responses';
import { changeView } from './cambios';

const RESPONSE = 'operacionesResponse';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'fecha YYYY-MM-DD');
const auditQuery = z.object({
  kind: z.string().max(64).optional(),
  operador: z.string().max(120).optional(),
  rut: z.string().max(16).optional(),
  idTransaccion: z.string().regex(/^[0-9a-fA-F]{32}$/, 'id de transacción: 32 caracteres hexadecimales').optional(),
  texto: z.string().trim().min(1).max(120).optional(),
  desde: day.optional(),
  hasta: day.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** The filters of the trail; null for a RUT that is not one (the trail holds masked RUTs only). */
function auditFilterOf(query: z.infer<typeof auditQuery>): AuditFilter | null {
  const rut = query.rut ? canonicalRut(query.rut) : undefined;
  if (rut === null) return null;
  return {
    kind: query.kind || undefined,
    operador: query.operador?.trim() || undefined,
    rut: rut || undefined,
    idTransaccion: query.idTransaccion?.toLowerCase(),
    texto: query.texto,
    desde: query.desde,
    hasta: query.hasta,
  };
}

const operatorOf = (detail: unknown) => {
  const d = (detail ?? {}) as Record<string, unknown>;
  return [d.operador, d.aprobadoPor, d.rechazadoPor].filter((v) => typeof v === 'string').join(' / ');
};
const rutParams = z.object({ rut: z.string().min(3).max(16) });

/** A moment as Chile's wall clock with its offset, '2026-03-14 21:05:09 -03:00': the day the auditor sees on screen. */
export function chileTime(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}

const done = envelopeResponses(RESPONSE, codigoHechoSchema);
const importReport = envelopeResponses(RESPONSE, importReportSchema);
const enrolmentCode = {
  ...envelopeResponses(RESPONSE, enrolmentCodeSchema),
  ...proposedResponse(RESPONSE, 'Proposed: once another operator approves it, the code is e-mailed to the member'),
};
const deviceList = envelopeResponses(RESPONSE, devicesSchema);
const auditEvents = envelopeResponses(RESPONSE, auditEventsSchema);
const transactionView = envelopeResponses(RESPONSE, transactionViewSchema);
const coreReconciliation = envelopeResponses(RESPONSE, coreReportSchema);

/** Operator's calls for members and payments (same bearer token as the parameters). */
export async function operationsRoutes(app: FastifyInstance): Promise<void> {
  const admin = createAdminService(app.database.db);
  const importer = createImportService(app.database.db, { cooperative: app.config.productName });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const notFound = (what: string) => errorEnvelope(RESPONSE, '400', `${what} no encontrado.`);

  r.post('/socios/:rut/desbloquear-clave', { schema: { params: rutParams, body: reasonBody, response: done }, config: { responseName: RESPONSE, permiso: 'socios.desbloquear' } }, async (request, reply) => {
    if (reasonRefused(request, reply, RESPONSE)) return reply;
    const done = await admin.unblockPassword(request.params.rut, request.id);
    return done ? { [RESPONSE]: { codigo: CODIGO_OK } } : reply.code(404).send(notFound('Socio'));
  });

  r.post('/socios/:rut/desbloquear-tarjeta', { schema: { params: rutParams, body: reasonBody, response: done }, config: { responseName: RESPONSE, permiso: 'socios.desbloquear' } }, async (request, reply) => {
    if (reasonRefused(request, reply, RESPONSE)) return reply;
    const done = await admin.unblockCard(request.params.rut, request.id);
    return done ? { [RESPONSE]: { codigo: CODIGO_OK } } : reply.code(404).send(notFound('Tarjeta de coordenadas'));
  });

  r.post(
    '/socios/:rut/autorizador/codigo',
    { schema: { params: rutParams, body: reasonBody, response: enrolmentCode }, config: { responseName: RESPONSE, permiso: 'autorizador.gestionar' } },
    async (request, reply) => {
      if (reasonRefused(request, reply, RESPONSE)) return reply;
      const actor = request.actor!;
      // The bootstrap token of the sandbox and development (production refuses it) gets the code at once.
      if (actor.kind === 'maquina' && actor.bootstrap) {
        const issued = await app.services.authoriser.issueEnrolmentCode(request.params.rut, 'operador', request.id);
        return issued ? { [RESPONSE]: { codigo: issued.codigo, vigenciaDias: issued.validDays } } : reply.code(404).send(notFound('Socio'));
      }
      // Anyone else proposes it: a second operator approves, and the code goes to the member's e-mail only. The change
      // names the member by id (the trail keeps masked RUTs only).
      const rut = canonicalRut(request.params.rut);
      const member = rut ? await findMemberByRut(app.database.db, rut) : null;
      if (!member) return reply.code(404).send(notFound('Socio'));
      if (!member.email) return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'El socio no tiene un correo registrado al que enviar el código.'));
      const proposed = await app.services.fourEyes.propose(actor, 'codigo_autorizador', member.id, { socio: maskRut(member.rut), motivo: request.body?.motivo }, request.id);
      if (!proposed.ok) return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'Ya hay un código de este socio esperando aprobación.'));
      return reply.code(202).send({ [RESPONSE]: { cambio: changeView(proposed.change, actor.persona) } });
    },
  );

  r.get('/socios/:rut/autorizador/dispositivos', { schema: { params: rutParams, response: deviceList }, config: { responseName: RESPONSE, permiso: 'socios.ver' } }, async (request, reply) => {
    const found = await app.services.authoriser.devicesOf(request.params.rut);
    return found ? { [RESPONSE]: { dispositivos: found } } : reply.code(404).send(notFound('Socio'));
  });

  r.post(
    '/autorizador/dispositivos/:id/revocar',
    { schema: { params: z.object({ id: z.uuid() }), body: reasonBody, response: done }, config: { responseName: RESPONSE, permiso: 'autorizador.gestionar' } },
    async (request, reply) => {
      if (reasonRefused(request, reply, RESPONSE)) return reply;
      const revoked = await app.services.authoriser.revoke(request.params.id, request.id);
      return revoked ? { [RESPONSE]: { codigo: CODIGO_OK } } : reply.code(404).send(notFound('Dispositivo activo'));
    },
  );

  // Up to 5.000 members per call (the CLI splits bigger loads); each row is validated and written on its own.
  r.post(
    '/importacion',
    { schema: { body: z.object({ corte: z.iso.datetime({ offset: true }), socios: z.array(z.unknown()).min(1).max(5_000) }).strict(), response: importReport }, config: { responseName: RESPONSE, permiso: 'importacion' }, bodyLimit: 20 * 1024 * 1024 },
    async (request) => ({ [RESPONSE]: await importer.importMembers(request.body.socios, new Date(request.body.corte), request.id, request.log) }),
  );

  // The console's upload: the file as the core wrote it, read here as the CLI reads it (cli/import-file.ts).
  r.post(
    '/importacion/archivo',
    {
      schema: {
        body: z
          .object({
            archivo: z.string().regex(/\.(csv|json)$/i, 'un archivo .csv o .json').max(200),
            contenido: z.string().min(1).max(15 * 1024 * 1024),
            corte: z.iso.datetime({ offset: true }).optional(),
          })
          .strict(),
        response: importReport,
      },
      config: { responseName: RESPONSE, permiso: 'importacion' },
      bodyLimit: 20 * 1024 * 1024,
    },
    async (request, reply) => {
      let load;
      try {
        load = readLoadWithCut(request.body.archivo, request.body.contenido);
      } catch (error) {
        return reply.code(400).send(errorEnvelope(RESPONSE, '400', `El archivo no se pudo leer: ${error instanceof Error ? error.message : 'formato inválido'}`));
      }
      const corte = request.body.corte ?? load.corte;
      if (!corte || Number.isNaN(Date.parse(corte))) return reply.code(400).send(errorEnvelope(RESPONSE, '400', 'Indique el corte: cuándo el core tomó el extracto.'));
      if (load.socios.length === 0) return reply.code(400).send(errorEnvelope(RESPONSE, '400', 'El archivo no trae socios.'));
      if (load.socios.length > 50_000) return reply.code(400).send(errorEnvelope(RESPONSE, '400', 'Más de 50.000 socios: use la línea de comandos.'));
      return { [RESPONSE]: await importer.importMembers(load.socios, new Date(corte), request.id, request.log) };
    },
  );

  r.get(
    '/auditoria',
    { schema: { querystring: auditQuery, response: auditEvents }, config: { responseName: RESPONSE, permiso: 'auditoria.ver' } },
    async (request, reply) => {
      const filter = auditFilterOf(request.query);
      if (!filter) return reply.code(400).send(errorEnvelope(RESPONSE, '400', 'RUT inválido.'));
      return { [RESPONSE]: { eventos: await filteredAudit(app.database.db, filter, request.query.limit) } };
    },
  );

  r.get(
    '/auditoria/tipos',
    { schema: { response: envelopeResponses(RESPONSE, auditKindsSchema) }, config: { responseName: RESPONSE, permiso: 'auditoria.ver' } },
    async () => ({ [RESPONSE]: { tipos: await auditKinds(app.database.db) } }),
  );

  // The same lines as CSV (up to 10.000), for the auditors' own tools; times in Chile's, as the screen shows them.
  r.get(
    '/auditoria/csv',
    { schema: { querystring: auditQuery.extend({ limit: z.coerce.number().int().min(1).max(10_000).default(10_000) }), response: { 200: documentOf('text/csv', 'The audit trail as CSV'), ...errorResponses(RESPONSE) } }, config: { responseName: RESPONSE, permiso: 'auditoria.ver' } },
    async (request, reply) => {
      const filter = auditFilterOf(request.query);
      if (!filter) return reply.code(400).send(errorEnvelope(RESPONSE, '400', 'RUT inválido.'));
      const rows = await filteredAudit(app.database.db, filter, request.query.limit);
      const lines = rows.map((row) => [row.id, chileTime(row.at), row.kind, operatorOf(row.detail), row.rutMasked, row.requestId, JSON.stringify(row.detail)]);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="auditoria.csv"')
        .send(toCsv(['id', 'fecha (hora de Chile)', 'tipo', 'operador', 'rut', 'solicitud', 'detalle'], lines));
    },
  );

  // The day's comparison with the core's books, by key (docs/core-banking.md); 503 while the core does not answer.
  r.get(
    '/conciliacion/core',
    { schema: { querystring: z.object({ fecha: z.string().regex(/^\d{8}$/).refine(isWireDate, 'fecha yyyymmdd inválida') }), response: coreReconciliation }, config: { responseName: RESPONSE, permiso: 'conciliacion.ver' } },
    async (request, reply) => {
      const report = await app.services.coreReconciliation.reconcileDay(request.query.fecha);
      if ('unavailable' in report) {
        request.log.warn({ detail: report.unavailable }, 'core reconciliation: the core did not answer');
        return reply.code(503).header('retry-after', '60').send(errorEnvelope(RESPONSE, '503'));
      }
      return { [RESPONSE]: report };
    },
  );

  r.get(
    '/transacciones/:id',
    { schema: { params: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) }), response: transactionView }, config: { responseName: RESPONSE, permiso: 'socios.ver' } },
    async (request, reply) => {
      const found = await admin.transaction(request.params.id);
      return found ? { [RESPONSE]: found } : reply.code(404).send(notFound('Transacción'));
    },
  );
}
