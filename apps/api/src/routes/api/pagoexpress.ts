import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUTH_PATH, AUTH_RESPONSE, INIT_MALL_PATH, INIT_MALL_RESPONSE } from '@pago/domain/call-pagoexpress';
import {
  authOkSchema,
  authRequestSchema,
  hostRefusalSchema,
  initMallOkSchema,
  initMallRequestSchema,
} from '@pago/domain/schemas/call-pagoexpress';
import { errorDetail, type ErrorCode } from '@pago/domain/errors';
import { allLimits } from '../../plugins/external/rate-limit';
import { errorResponses, redirect } from '../responses';
import type { ReturnEstado } from '../../services/card-payment-service';

const bearer = (request: FastifyRequest) => {
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice(7).trim() : '';
};

const hostResponses = <N extends string, T extends z.core.SomeType>(responseName: N, ok: T) => ({
  200: z.union([ok, hostRefusalSchema]),
  ...errorResponses(responseName),
});

const WEBPAY_OUTCOMES = {
  aprobado: 'paid',
  parcial: 'partial',
  rechazado: 'rejected',
  anulado: 'cancelled',
  expirado: 'expired',
  pendiente: 'pending',
  // Charged by Webpay, not applied: given back, being given back, or held for an operator.
  reembolsado: 'refunded',
  reembolso: 'refunding',
  retenido: 'held',
  error: 'error',
} as const satisfies Record<ReturnEstado, string>;

/** A refusal of the payment host: the spec's `code` (0 = ok) with the catalogue's description. */
const refusal = (codigo: ErrorCode) => ({ code: Number(codigo), descripcion: errorDetail(codigo).descripcion });

/** The payment host (spec §7 calls 9 and 10) and the page Webpay sends the browser back to. */
export async function pagoExpressRoutes(app: FastifyInstance): Promise<void> {
  await app.register(formbody, { bodyLimit: 8 * 1024 });
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The same limiter as every other call, so a 429 here says when to retry (Retry-After) like the others.
  const limit = allLimits(app.createRateLimit({ max: app.config.rateLimits.loginPerIp, timeWindow: 60_000, keyGenerator: (req) => `pagoexpress:${req.client}` }));

  r.post(AUTH_PATH, { schema: { body: authRequestSchema, response: hostResponses(AUTH_RESPONSE, authOkSchema) }, config: { responseName: AUTH_RESPONSE }, preHandler: limit }, async (request) => {
    const token = bearer(request);
    if (!token) return refusal('476');
    const result = await app.services.card.auth(token, request.body.idTransaction, request.id);
    return result.ok ? { code: 0 as const, token: result.token } : refusal(result.codigo);
  });

  r.post(INIT_MALL_PATH, { schema: { body: initMallRequestSchema, response: hostResponses(INIT_MALL_RESPONSE, initMallOkSchema) }, config: { responseName: INIT_MALL_RESPONSE }, preHandler: limit }, async (request) => {
    const token = bearer(request);
    if (!token) return refusal('476');
    const { transactionId, storesTransaction } = request.body;
    const result = await app.services.card.initMall(token, transactionId, storesTransaction, request.id);
    return result.ok ? { token: result.token, url: result.url } : refusal(result.codigo);
  });

  // Webpay returns by POST or GET depending on the flow and the environment: both land here. No cookie is
  // read: the attempt is found by Webpay's token or buy order.
  const onReturn = async (request: FastifyRequest, reply: FastifyReply) => {
    const fields = { ...((request.query as Record<string, unknown>) ?? {}), ...((request.body as Record<string, unknown>) ?? {}) };
    const outcome = await app.services.card.handleReturn(fields, request.id);
    app.metrics.payments.inc({ method: 'webpay', outcome: WEBPAY_OUTCOMES[outcome.estado] });
    const query = new URLSearchParams({ estado: outcome.estado, ...(outcome.idTransaccion ? { idTransaccion: outcome.idTransaccion } : {}) });
    return reply.redirect(`/pagoexpress/webpayresult?${query.toString()}`, 303);
  };
  const returnSchema = { response: { 303: redirect('To the result page, /pagoexpress/webpayresult'), ...errorResponses('webpayReturn') } };
  // Returns per client: a member comes back once or twice. Past the limit the browser is sent to the result page as
  // 'pendiente' with nothing done (the reconciliation settles any payment), never to an error in JSON.
  const returns = app.createRateLimit({ max: app.config.rateLimits.returnPerIp, timeWindow: 60_000, keyGenerator: (req) => `webpay-return:${req.client}` });
  const returnLimit = async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await returns(request);
    if (result.isAllowed || !result.isExceeded) return;
    request.log.warn('webpay returns over the limit from one client: answered without asking Webpay');
    return reply.header('retry-after', String(result.ttlInSeconds)).redirect('/pagoexpress/webpayresult?estado=pendiente', 303);
  };
  app.post('/api/pagoexpress/webpay/return', { schema: returnSchema, config: { responseName: 'webpayReturn' }, preHandler: returnLimit }, onReturn);
  app.get('/api/pagoexpress/webpay/return', { schema: returnSchema, config: { responseName: 'webpayReturn' }, preHandler: returnLimit }, onReturn);
}
