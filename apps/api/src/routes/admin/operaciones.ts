import { CODIGO_OK } from '@pago/domain/call-seleccionar-plain';
import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAdminService } from '../../services/admin-service';
import { createImportService } from '../../services/import-service';
import { envelopeResponses } from '../responses';
import { isWireDate } from '@pago/domain/dates';

const RESPONSE = 'operacionesResponse';
const rutParams = z.object({ rut: z.string().min(3).max(16) });

const done = envelopeResponses(RESPONSE, z.object({ codigo: z.literal(CODIGO_OK) }));
const importReport = envelopeResponses(
  RESPONSE,
  z.object({
    recibidos: z.number().int(),
    aceptados: z.number().int(),
    rechazados: z.array(z.object({ fila: z.number().int(), rut: z.string(), motivos: z.array(z.string()) })),
  }),
);
const enrolmentCode = envelopeResponses(RESPONSE, z.object({ codigo: z.string(), vigenciaDias: z.number().int() }));
const deviceList = envelopeResponses(
  RESPONSE,
  z.object({ dispositivos: z.array(z.object({ id: z.uuid(), nombre: z.string(), enrolado: z.date(), revocado: z.date().nullable() })) }),
);
const auditEvent = z.object({ id: z.number().int(), at: z.date(), kind: z.string(), rutMasked: z.string().nullable(), requestId: z.string().nullable(), detail: z.unknown() });
const auditEvents = envelopeResponses(RESPONSE, z.object({ eventos: z.array(auditEvent) }));
// The rows as the database holds them (the host token's hash left out): an operator's view, not a member's answer.
const row = z.looseObject({});
const transactionView = envelopeResponses(
  RESPONSE,
  z.object({
    transaccion: row,
    lineas: z.array(row),
    autorizaciones: z.array(row),
    webpay: z.array(row),
    core: z.array(row),
    comprobante: row.nullable(),
    auditoria: z.array(auditEvent),
  }),
);

const coreReconciliation = envelopeResponses(
  RESPONSE,
  z.object({
    fecha: z.string(),
    conciliadas: z.number().int(),
    diferencias: z.number().int(),
    lineas: z.array(
      z.object({
        clave: z.string(),
        idTransaccion: z.string().nullable(),
        tipo: z.enum(['cuenta_vista', 'abono_webpay']).nullable(),
        estadoAqui: z.string().nullable(),
        montoAqui: z.number().nullable(),
        montoCore: z.number().nullable(),
        resultado: z.enum(['conciliada', 'pendiente', 'falta en el core', 'falta aquí', 'monto distinto']),
      }),
    ),
  }),
);

/** Operator's calls for members and payments (same bearer token as the parameters). */
export async function operationsRoutes(app: FastifyInstance): Promise<void> {
  const admin = createAdminService(app.database.db);
  const importer = createImportService(app.database.db, { enrolmentCodeDays: app.config.authoriser.enrolmentCodeDays });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const notFound = (what: string) => errorEnvelope(RESPONSE, '400', `${what} no encontrado.`);

  r.post('/socios/:rut/desbloquear-clave', { schema: { params: rutParams, response: done }, config: { responseName: RESPONSE } }, async (request, reply) => {
    const done = await admin.unblockPassword(request.params.rut, request.id);
    return done ? { [RESPONSE]: { codigo: CODIGO_OK } } : reply.code(404).send(notFound('Socio'));
  });

  r.post('/socios/:rut/desbloquear-tarjeta', { schema: { params: rutParams, response: done }, config: { responseName: RESPONSE } }, async (request, reply) => {
    const done = await admin.unblockCard(request.params.rut, request.id);
    return done ? { [RESPONSE]: { codigo: CODIGO_OK } } : reply.code(404).send(notFound('Tarjeta de coordenadas'));
  });

  r.post(
    '/socios/:rut/autorizador/codigo',
    { schema: { params: rutParams, response: enrolmentCode }, config: { responseName: RESPONSE } },
    async (request, reply) => {
      const issued = await app.services.authoriser.issueEnrolmentCode(request.params.rut, 'operador', request.id);
      return issued ? { [RESPONSE]: { codigo: issued.codigo, vigenciaDias: issued.validDays } } : reply.code(404).send(notFound('Socio'));
    },
  );

  r.get('/socios/:rut/autorizador/dispositivos', { schema: { params: rutParams, response: deviceList }, config: { responseName: RESPONSE } }, async (request, reply) => {
    const found = await app.services.authoriser.devicesOf(request.params.rut);
    return found ? { [RESPONSE]: { dispositivos: found } } : reply.code(404).send(notFound('Socio'));
  });

  r.post(
    '/autorizador/dispositivos/:id/revocar',
    { schema: { params: z.object({ id: z.uuid() }), response: done }, config: { responseName: RESPONSE } },
    async (request, reply) => {
      const revoked = await app.services.authoriser.revoke(request.params.id, request.id);
      return revoked ? { [RESPONSE]: { codigo: CODIGO_OK } } : reply.code(404).send(notFound('Dispositivo activo'));
    },
  );

  // Up to 5.000 members per call (the CLI splits bigger loads); each row is validated and written on its own.
  r.post(
    '/importacion',
    { schema: { body: z.object({ corte: z.iso.datetime({ offset: true }), socios: z.array(z.unknown()).min(1).max(5_000) }).strict(), response: importReport }, config: { responseName: RESPONSE }, bodyLimit: 20 * 1024 * 1024 },
    async (request) => ({ [RESPONSE]: await importer.importMembers(request.body.socios, new Date(request.body.corte), request.id, request.log) }),
  );

  r.get(
    '/auditoria',
    { schema: { querystring: z.object({ kind: z.string().max(64).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) }), response: auditEvents }, config: { responseName: RESPONSE } },
    async (request) => ({ [RESPONSE]: { eventos: await admin.audit(request.query.kind, request.query.limit) } }),
  );

  // The day's comparison with the core's books, by key (docs/core-banking.md); 503 while the core does not answer.
  r.get(
    '/conciliacion/core',
    { schema: { querystring: z.object({ fecha: z.string().regex(/^\d{8}$/).refine(isWireDate, 'fecha yyyymmdd inválida') }), response: coreReconciliation }, config: { responseName: RESPONSE } },
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
    { schema: { params: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) }), response: transactionView }, config: { responseName: RESPONSE } },
    async (request, reply) => {
      const found = await admin.transaction(request.params.id);
      return found ? { [RESPONSE]: found } : reply.code(404).send(notFound('Transacción'));
    },
  );
}
