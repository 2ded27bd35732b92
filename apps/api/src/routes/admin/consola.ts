import { businessToday } from '@pago/domain/business-time';
import { isWireDate, wireToIso } from '@pago/domain/dates';
import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignedRolesSchema,
  codigoOkSchema,
  memberSchema,
  paymentsPageSchema,
  refusedCreditsSchema,
  setAsideChargesSchema,
  summarySchema,
  tokenAskedSchema,
  tokenIssuedSchema,
  tokensSchema,
  webpayReportSchema,
} from '@pago/domain/schemas/admin';
import { paidOfDayByMethod } from '../../repositories/transaction-repository';
import { openAndHeldLastMonth } from '../../repositories/webpay-attempt-repository';
import { actorLabel } from '../../operator/access';
import { issueMachineToken, TOKEN_NAME } from '../../operator/machine-tokens';
import { isPermission, isRole, PERMISSIONS, ROLES } from '../../operator/roles';
import { appendAudit } from '../../repositories/audit-repository';
import { checkRepost, pendingStats, refusedCredits } from '../../repositories/core-operation-repository';
import { REPOST_REFUSALS } from '../../operator/four-eyes';
import { assignedRoles, listAssignedRoles, listMachineTokens, revokeMachineToken } from '../../repositories/operator-repository';
import { createAdminService } from '../../services/admin-service';
import { searchPayments } from '../../repositories/payment-search-repository';
import { maskAccount } from '../../services/payment-service';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import { TRANSACTION_MOVES, type TransactionStatus } from '@pago/domain/payment-states';
import { refundableAttempt, REFUND_REFUSALS, setAsideAttempts } from '../../services/card-manual-refund';
import { reconciliationCsv } from '../../services/core-reconciliation-service';
import { webpayReport, webpayReportCsv } from '../../services/webpay-report';
import { documentOf, envelopeResponses, errorResponses, proposedResponse } from '../responses';
import { changesRoutes, changeView } from './cambios';
import { reasonBody, reasonRefused } from './reason';
import { recordReason } from '../../repositories/audit-repository';
import { REVERSAL_REFUSALS, reversiblePayment } from '../../services/payment-reversal';

const RESPONSE = 'consolaResponse';
const rutParams = z.object({ rut: z.string().min(3).max(16) });
const wireDate = z.string().regex(/^\d{8}$/).refine(isWireDate, 'fecha yyyymmdd inválida');
const fechaQuery = z.object({ fecha: wireDate });
const done = envelopeResponses(RESPONSE, codigoOkSchema);
const csv = (description: string) => ({ 200: documentOf('text/csv', description), ...errorResponses(RESPONSE) });
const summary = envelopeResponses(RESPONSE, summarySchema);
const memberView = envelopeResponses(RESPONSE, memberSchema);
const webpayReportView = envelopeResponses(RESPONSE, webpayReportSchema);

const PAGE_SIZE = 25;
const TRANSACTION_STATUSES = Object.keys(TRANSACTION_MOVES) as [TransactionStatus, ...TransactionStatus[]];
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'fecha AAAA-MM-DD');
const paymentQuery = z
  .object({
    referencia: z.string().trim().min(1).max(64).optional(),
    rut: z.string().trim().min(3).max(16).optional(),
    monto: z.coerce.number().int().positive().max(10_000_000_000).optional(),
    desde: isoDay.optional(),
    hasta: isoDay.optional(),
    estado: z.enum(TRANSACTION_STATUSES).optional(),
    medioPago: z.enum(['CUENTA VISTA', 'WEBPAY']).optional(),
    pagina: z.coerce.number().int().min(1).max(10_000).default(1),
  })
  .strict();
const paymentList = envelopeResponses(RESPONSE, paymentsPageSchema);
const toTokenView = (row: Awaited<ReturnType<typeof listMachineTokens>>[number]) => ({
  id: row.id,
  nombre: row.name,
  alcances: row.scopes.filter(isPermission),
  creadoPor: row.createdBy,
  creado: row.createdAt,
  aprobadoPor: row.approvedBy,
  aprobado: row.approvedAt,
  ultimoUso: row.lastUsedAt,
  revocado: row.revokedAt,
});

/** What the console shows beyond the operations' calls: the dashboard, a member, reconciliation, tokens, roles. */
export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const admin = createAdminService(db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  await app.register(changesRoutes);

  r.get('/resumen', { schema: { response: summary }, config: { responseName: RESPONSE, permiso: 'resumen.ver' } }, async () => {
    const fecha = businessToday(new Date());
    const pagos = await paidOfDayByMethod(db, wireToIso(fecha));
    const webpay = await openAndHeldLastMonth(db);
    const core = await pendingStats(db);
    const cambios = (await app.services.fourEyes.list(0)).length;
    const webpayToday = await webpayReport(db, wireToIso(fecha));
    return {
      [RESPONSE]: {
        fecha,
        pagos: pagos.map((p) => ({ ...p, medioPago: p.medioPago ?? '—' })),
        webpayPendientes: webpay.pendientes,
        webpayApartados: webpay.apartados,
        corePendientes: core.pending,
        coreRechazados: core.refused,
        coreMasAntiguoSegundos: Math.round(core.oldestSeconds),
        cambiosPendientes: cambios,
        diferenciasWebpayHoy: webpayToday.diferencias,
        baseDeDatos: await app.database.ping(),
      },
    };
  });

  r.get('/socios/:rut', { schema: { params: rutParams, response: memberView }, config: { responseName: RESPONSE, permiso: 'socios.ver' } }, async (request, reply) => {
    const found = await admin.member(request.params.rut, new Date());
    return found ? { [RESPONSE]: found } : reply.code(404).send(errorEnvelope(RESPONSE, '400', 'Socio no encontrado.'));
  });

  // Payments found from either side: by a reference (transaction id, verification code, buy order), the holder's or
  // the payer's RUT, amount, day in Santiago, state and method; a page at a time.
  r.get('/pagos', { schema: { querystring: paymentQuery, response: paymentList }, config: { responseName: RESPONSE, permiso: 'socios.ver' } }, async (request, reply) => {
    const { referencia, rut: rutInput, pagina, ...rest } = request.query;
    const rut = rutInput ? canonicalRut(rutInput) : undefined;
    if (rut === null) return reply.code(400).send(errorEnvelope(RESPONSE, '400', 'RUT inválido.'));
    const found = await searchPayments(db, { ...rest, referencia, rut }, { offset: (pagina - 1) * PAGE_SIZE, limit: PAGE_SIZE });
    return {
      [RESPONSE]: {
        total: found.total,
        pagina,
        porPagina: PAGE_SIZE,
        pagos: found.rows.map((p) => ({
          idTransaccion: p.idTransaccion,
          socio: maskRut(p.rutSocio),
          pagador: p.rutPagador ? maskRut(p.rutPagador) : null,
          nombrePagador: p.nombrePagador,
          cuentaDebitada: p.cuenta ? maskAccount(p.cuenta) : null,
          familia: p.familia,
          total: p.total,
          estado: p.estado,
          medioPago: p.medioPago,
          creada: p.creada,
          pagada: p.pagada,
          codigoVerificacion: p.codigoVerificacion,
          ordenesCompra: p.ordenesCompra ?? [],
        })),
      },
    };
  });

  r.post(
    '/transacciones/:id/comprobante/reenviar',
    { schema: { params: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) }), body: reasonBody, response: done }, config: { responseName: RESPONSE, permiso: 'comprobantes.reenviar' } },
    async (request, reply) => {
      if (reasonRefused(request, reply, RESPONSE)) return reply;
      const outcome = await app.services.notifications.resendVoucher(request.params.id, request.id);
      if (outcome === 'not_found') return reply.code(404).send(errorEnvelope(RESPONSE, '400', 'La transacción no tiene comprobante.'));
      if (outcome === 'no_email') return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'El socio no tiene un correo registrado.'));
      if (outcome === 'failed') return reply.code(502).send(errorEnvelope(RESPONSE, '502'));
      return { [RESPONSE]: { codigo: 'OK' as const } };
    },
  );

  r.get('/conciliacion/webpay', { schema: { querystring: fechaQuery, response: webpayReportView }, config: { responseName: RESPONSE, permiso: 'conciliacion.ver' } }, async (request) => ({
    [RESPONSE]: await webpayReport(db, wireToIso(request.query.fecha)),
  }));

  r.get('/conciliacion/webpay/csv', { schema: { querystring: fechaQuery, response: csv('The day\'s card payments against Webpay, as CSV') }, config: { responseName: RESPONSE, permiso: 'conciliacion.ver' } }, async (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="conciliacion-webpay-${request.query.fecha}.csv"`)
      .send(webpayReportCsv(await webpayReport(db, wireToIso(request.query.fecha)))),
  );

  r.get('/conciliacion/core/csv', { schema: { querystring: fechaQuery, response: csv('The day\'s operations against the core\'s books, as CSV') }, config: { responseName: RESPONSE, permiso: 'conciliacion.ver' } }, async (request, reply) => {
    const report = await app.services.coreReconciliation.reconcileDay(request.query.fecha);
    if ('unavailable' in report) return reply.code(503).header('retry-after', '60').send(errorEnvelope(RESPONSE, '503'));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="conciliacion-core-${request.query.fecha}.csv"`)
      .send(reconciliationCsv(report));
  });

  // Card credits the core refused: re-posted under a new key once a second person approves (four eyes).
  r.get(
    '/core/rechazadas',
    {
      schema: {
        response: envelopeResponses(RESPONSE, refusedCreditsSchema),
      },
      config: { responseName: RESPONSE, permiso: 'conciliacion.ver' },
    },
    async () => ({
      [RESPONSE]: {
        abonos: (await refusedCredits(db)).map((op) => ({ clave: op.key, idTransaccion: op.idTransaccion, familia: op.lines[0]?.family ?? null, monto: op.amount, motivo: op.lastError, creado: op.createdAt })),
      },
    }),
  );

  r.post(
    '/core/operaciones/:clave/reenviar',
    {
      schema: {
        params: z.object({ clave: z.string().min(1).max(120) }),
        response: { ...errorResponses(RESPONSE), ...proposedResponse(RESPONSE, 'Proposed: re-posted once another operator approves it') },
      },
      config: { responseName: RESPONSE, permiso: 'core.reenviar' },
    },
    async (request, reply) => {
      const check = await checkRepost(db, request.params.clave);
      if (!check.ok) return reply.code(check.reason === 'not_found' ? 404 : 409).send(errorEnvelope(RESPONSE, '400', `${REPOST_REFUSALS[check.reason]}.`));
      const proposed = await app.services.fourEyes.propose(request.actor!, 'reposteo_core', check.op.key, { idTransaccion: check.op.idTransaccion, monto: check.op.amount }, request.id);
      if (!proposed.ok) return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'Ya hay un reenvío de este abono esperando aprobación.'));
      return reply.code(202).send({ [RESPONSE]: { cambio: changeView(proposed.change, request.actor!.persona) } });
    },
  );

  // Card payments Webpay took that were neither applied nor given back: refunded once a second person approves (036).
  r.get(
    '/webpay/apartados',
    {
      schema: {
        response: envelopeResponses(RESPONSE, setAsideChargesSchema),
      },
      config: { responseName: RESPONSE, permiso: 'conciliacion.ver' },
    },
    async () => ({ [RESPONSE]: { cobros: await setAsideAttempts(db) } }),
  );

  r.post(
    '/webpay/:ordenCompra/devolver',
    {
      schema: {
        params: z.object({ ordenCompra: z.string().regex(/^[A-Za-z0-9-]{1,40}$/) }),
        body: z.object({ motivo: z.string().trim().min(5, 'al menos 5 caracteres').max(300) }).strict(),
        response: { ...errorResponses(RESPONSE), ...proposedResponse(RESPONSE, 'Proposed: refunded once another operator approves it') },
      },
      config: { responseName: RESPONSE, permiso: 'webpay.devolver' },
    },
    async (request, reply) => {
      const found = await refundableAttempt(db, request.params.ordenCompra);
      if (!found.ok) return reply.code(found.reason === 'not_found' ? 404 : 409).send(errorEnvelope(RESPONSE, '400', `${REFUND_REFUSALS[found.reason]}.`));
      const { attempt, amount } = found;
      const proposed = await app.services.fourEyes.propose(request.actor!, 'devolucion_webpay', attempt.buyOrder, { idTransaccion: attempt.idTransaccion, monto: amount, motivo: request.body.motivo }, request.id);
      if (!proposed.ok) return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'Ya hay una devolución de este cobro esperando aprobación.'));
      return reply.code(202).send({ [RESPONSE]: { cambio: changeView(proposed.change, request.actor!.persona) } });
    },
  );

  // A paid payment reversed: the core and Webpay give the money back once a second finance operator approves (050).
  r.post(
    '/transacciones/:id/anular',
    {
      schema: {
        params: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) }),
        body: z.object({ motivo: z.string().trim().min(5, 'al menos 5 caracteres').max(300) }).strict(),
        response: { ...errorResponses(RESPONSE), ...proposedResponse(RESPONSE, 'Proposed: reversed once another finance operator approves it') },
      },
      config: { responseName: RESPONSE, permiso: 'pagos.anular' },
    },
    async (request, reply) => {
      const found = await reversiblePayment(db, request.params.id);
      if (!found.ok) return reply.code(found.reason === 'not_found' ? 404 : 409).send(errorEnvelope(RESPONSE, '400', `${REVERSAL_REFUSALS[found.reason]}.`));
      recordReason(request.body.motivo);
      const payload = { idTransaccion: found.trx.idTransaccion, monto: found.monto, medioPago: found.trx.medioPago, motivo: request.body.motivo };
      const proposed = await app.services.fourEyes.propose(request.actor!, 'anulacion_pago', found.trx.idTransaccion, payload, request.id);
      if (!proposed.ok) return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'Ya hay una anulación de este pago esperando aprobación.'));
      return reply.code(202).send({ [RESPONSE]: { cambio: changeView(proposed.change, request.actor!.persona) } });
    },
  );

  // Machine tokens: each acts for the person who asked for it, within that person's permissions, and works only once
  // another administrator approves it (four eyes). The secret is shown once, to the person asking; only its hash is kept.
  r.get('/tokens', { schema: { response: envelopeResponses(RESPONSE, tokensSchema) }, config: { responseName: RESPONSE, permiso: 'resumen.ver' } }, async (request) => {
    const actor = request.actor!;
    // Administrators see every token; anyone else the ones they asked for.
    const rows = await listMachineTokens(db, actor.permisos.has('tokens.gestionar') ? undefined : actor.persona);
    return { [RESPONSE]: { tokens: rows.map(toTokenView) } };
  });

  r.post(
    '/tokens',
    {
      schema: {
        body: z
          .object({
            nombre: z.string().regex(TOKEN_NAME, 'minúsculas, dígitos, punto, guion; 2 a 48'),
            alcances: z.array(z.enum(PERMISSIONS)).min(1).max(PERMISSIONS.length),
          })
          .strict(),
        response: {
          ...envelopeResponses(RESPONSE, tokenIssuedSchema),
          202: z.object({ [RESPONSE]: tokenAskedSchema }).describe('Asked for: the token works once another administrator approves it'),
        },
      },
      config: { responseName: RESPONSE, permiso: 'resumen.ver' },
    },
    async (request, reply) => {
      const actor = request.actor!;
      const { nombre, alcances } = request.body;
      const taken = () => reply.code(409).send(errorEnvelope(RESPONSE, '400', `Ya existe un token llamado ${nombre}.`));
      if (actor.kind === 'maquina' && actor.bootstrap) {
        // The bootstrap token of the sandbox and development (production refuses it) issues at once.
        const issued = await issueMachineToken(db, { nombre, alcances, by: actor.nombre, issuerSubject: actor.persona, approved: true }, request.id);
        return issued ? { [RESPONSE]: { token: toTokenView(issued.row), secreto: issued.secreto } } : taken();
      }
      if (actor.kind === 'maquina') return reply.code(403).send(errorEnvelope(RESPONSE, '400', 'Un token lo pide una persona en la consola, no otro token.'));
      const beyond = alcances.filter((scope) => !actor.permisos.has(scope));
      if (beyond.length > 0) {
        await appendAudit(db, { kind: 'token.rechazado', requestId: request.id, detail: { token: nombre, alcances, fueraDeSusRoles: beyond, operador: actor.nombre } });
        return reply.code(403).send(errorEnvelope(RESPONSE, '400', `Un token no puede hacer lo que sus roles no permiten: ${beyond.join(', ')}.`));
      }
      const outcome = await db.transaction(async (tx) => {
        const issued = await issueMachineToken(tx, { nombre, alcances, by: actor.nombre, issuerSubject: actor.persona, approved: false }, request.id);
        if (!issued) return null;
        const proposed = await app.services.fourEyes.proposeWithin(tx, actor, 'token', issued.row.id, { token: nombre, alcances: issued.row.scopes }, request.id);
        if (!proposed.ok) throw new Error('a new token already had a pending change');
        return { issued, change: proposed.change };
      });
      if (!outcome) return taken();
      return reply.code(202).send({ [RESPONSE]: { token: toTokenView(outcome.issued.row), secreto: outcome.issued.secreto, cambio: changeView(outcome.change, actor.persona) } });
    },
  );

  r.post('/tokens/:id/revocar', { schema: { params: z.object({ id: z.uuid() }), response: done }, config: { responseName: RESPONSE, permiso: 'resumen.ver' } }, async (request, reply) => {
    const actor = request.actor!;
    const by = actorLabel(actor);
    // Revoking takes nothing from anyone: an administrator revokes any token, anyone else their own.
    const row = await revokeMachineToken(db, request.params.id, by, actor.permisos.has('tokens.gestionar') ? undefined : actor.persona);
    if (!row) return reply.code(404).send(errorEnvelope(RESPONSE, '400', 'Token activo no encontrado.'));
    await appendAudit(db, { kind: 'token.revocado', requestId: request.id, detail: { token: row.name, operador: by } });
    return { [RESPONSE]: { codigo: 'OK' as const } };
  });

  // Roles given here, for a provider that carries none: a second administrator approves them, nobody changes their
  // own, and once applied the operator's open sessions end (the new roles hold at their next sign-in).
  r.get(
    '/operadores/roles',
    { schema: { response: envelopeResponses(RESPONSE, assignedRolesSchema) }, config: { responseName: RESPONSE, permiso: 'operadores.roles' } },
    async () => ({ [RESPONSE]: { operadores: (await listAssignedRoles(db)).map((row) => ({ sujeto: row.subject, roles: row.roles.filter(isRole), asignadoPor: row.updatedBy, actualizado: row.updatedAt })) } }),
  );

  r.put(
    '/operadores/:sujeto/roles',
    {
      schema: {
        params: z.object({ sujeto: z.string().min(1).max(255) }),
        body: z.object({ roles: z.array(z.enum(ROLES)).max(ROLES.length) }).strict(),
        response: { ...errorResponses(RESPONSE), ...proposedResponse(RESPONSE, 'Proposed: applied once another administrator approves it') },
      },
      config: { responseName: RESPONSE, permiso: 'operadores.roles' },
    },
    async (request, reply) => {
      const actor = request.actor!;
      const { sujeto } = request.params;
      if (sujeto === actor.persona) {
        await appendAudit(db, { kind: 'operador.roles.rechazado', requestId: request.id, detail: { sujeto, roles: request.body.roles, motivo: 'propios', operador: actorLabel(actor) } });
        return reply.code(403).send(errorEnvelope(RESPONSE, '400', 'Nadie cambia sus propios roles: los cambia otro administrador.'));
      }
      const roles = [...new Set(request.body.roles.filter(isRole))];
      const anteriores = (await assignedRoles(db, sujeto)) ?? [];
      const proposed = await app.services.fourEyes.propose(actor, 'roles_operador', sujeto, { roles, anteriores }, request.id);
      if (!proposed.ok) return reply.code(409).send(errorEnvelope(RESPONSE, '400', 'Ya hay un cambio de roles de este operador esperando aprobación.'));
      return reply.code(202).send({ [RESPONSE]: { cambio: changeView(proposed.change, actor.persona) } });
    },
  );
}

