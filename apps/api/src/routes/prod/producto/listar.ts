import { LISTAR_PRODUCTOS_PATH, LISTAR_PRODUCTOS_RESPONSE } from '@pago/domain/call-listar';
import { listarProductosOkSchema, listarProductosRequestSchema } from '@pago/domain/schemas/call-listar';
import { errorEnvelope } from '@pago/domain/envelope';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { allLimits } from '../../../plugins/external/rate-limit';
import { appendAudit } from '../../../repositories/audit-repository';
import type { CaptchaRefusal } from '../../../services/captcha-service';
import { envelopeResponses } from '../../responses';

const rutOf = (request: FastifyRequest) => {
  const raw = (request.body as { listarDetalleProductosRequest?: { rut?: string } } | undefined)?.listarDetalleProductosRequest?.rut ?? '';
  return canonicalRut(raw) ?? raw;
};

/** Call 2 (spec §7.2): captcha-gated, rate-limited per address, per RUT and address, and per RUT. */
export async function listarProductosRoute(app: FastifyInstance): Promise<void> {
  const limits = app.config.rateLimits;
  const perIp = allLimits(app.createRateLimit({ max: limits.listarPerIp, timeWindow: 60_000, keyGenerator: (request) => `listar-ip:${request.client}` }));
  // Per RUT and client: one client cannot look up a member's debts again and again.
  const perRutAndClient = app.createRateLimit({ max: limits.listarPerRut, timeWindow: 15 * 60_000, keyGenerator: (request) => `listar-rut:${rutOf(request)}:${request.client}` });
  // Per RUT from every client: a ceiling only many addresses together reach; past it each client is held tighter.
  const rutCeiling = app.createRateLimit({ max: limits.listarRutCeiling, timeWindow: 15 * 60_000, keyGenerator: (request) => `listar-rut-all:${rutOf(request)}` });
  const oneAlertPerWindow = app.createRateLimit({ max: 1, timeWindow: 15 * 60_000, keyGenerator: (request) => `listar-rut-alert:${rutOf(request)}` });
  const limited = (reply: FastifyReply, retryAfter: number) => {
    reply.header('retry-after', String(retryAfter));
    throw Object.assign(new Error('rate limited'), { statusCode: 429 });
  };
  /** The first listing past a RUT's ceiling in its window: an alert in the audit trail and the log (masked RUT). */
  const ceilingReached = async (request: FastifyRequest, windowSeconds: number) => {
    const rut = canonicalRut(rutOf(request));
    request.log.warn({ rut: rut ? maskRut(rut) : null }, 'product list: a RUT reached its ceiling of listings from all clients');
    await appendAudit(app.database.db, { kind: 'listar.tope.rut', rutMasked: rut ? maskRut(rut) : null, requestId: request.id, detail: { tope: limits.listarRutCeiling, segundos: windowSeconds } });
  };
  app.withTypeProvider<ZodTypeProvider>().post(
    LISTAR_PRODUCTOS_PATH,
    {
      schema: { body: listarProductosRequestSchema, response: envelopeResponses(LISTAR_PRODUCTOS_RESPONSE, listarProductosOkSchema) },
      config: { responseName: LISTAR_PRODUCTOS_RESPONSE },
      preHandler: async (request, reply) => {
        await perIp(request, reply);
        // No limit here has an allow list, so every answer carries its count.
        const here = await perRutAndClient(request);
        if (here.isAllowed) return;
        if (here.isExceeded) return limited(reply, here.ttlInSeconds);
        const all = await rutCeiling(request);
        if (all.isAllowed || !all.isExceeded) return;
        // Past the ceiling nobody is shut out: each client keeps a few listings of the RUT (the member's own, from
        // their device), while the clients that made the ceiling, which listed it many times, are refused.
        const listedHere = here.max - here.remaining;
        const alert = await oneAlertPerWindow(request);
        if (!alert.isAllowed && !alert.isExceeded) await ceilingReached(request, all.ttlInSeconds);
        if (listedHere > limits.listarPastCeiling) return limited(reply, here.ttlInSeconds);
      },
    },
    async (request, reply) => {
      const rut = canonicalRut(request.body.listarDetalleProductosRequest.rut);
      if (!rut) return reply.code(400).send(errorEnvelope(LISTAR_PRODUCTOS_RESPONSE, '400'));
      const refuseCaptcha = async (motivo: CaptchaRefusal) => {
        await appendAudit(app.database.db, { kind: 'captcha.rechazado', rutMasked: maskRut(rut), requestId: request.id, detail: { motivo, cliente: request.client } });
        return errorEnvelope(LISTAR_PRODUCTOS_RESPONSE, '482');
      };
      // Verified here, spent by the listing before it reads anything.
      const captcha = await app.services.captcha.verify(request.headers.authorization);
      if (!captcha.ok) return refuseCaptcha(captcha.reason);
      const result = await app.services.products.list(rut, request.id, captcha.spend);
      if ('replayed' in result) return refuseCaptcha('replayed');
      if (!result.ok) return errorEnvelope(LISTAR_PRODUCTOS_RESPONSE, result.codigo);
      return { [LISTAR_PRODUCTOS_RESPONSE]: { token: result.token, listaProductos: result.productos } };
    },
  );
}
