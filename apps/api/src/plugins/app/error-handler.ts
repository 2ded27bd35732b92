import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { databaseFailure, loggableError } from '../../loggable-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The key the route's answer is wrapped in (spec §7), used for errors too. */
    responseName?: string;
  }
}

/** The envelope's name for what answers outside any named call (the router, health, the sandbox). */
export const DEFAULT_RESPONSE_NAME = 'errorResponse';

// PostgreSQL's own timeouts: statement_timeout cancelled the statement (57014), or idle_in_transaction_session_timeout
// ended the session (25P03). Either way the transaction was rolled back and a retry may well succeed.
const SERVER_TIMEOUT_CODES = new Set(['57014', '25P03']);

function serverTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SERVER_TIMEOUT_CODES.has(code)) return true;
  }
  return false;
}

/**
 * The handler of a request that timed out keeps running (Fastify cannot stop it); what it does is bounded by the
 * database's and Webpay's own timeouts, and its transaction commits whole or rolls back. When it ends, Fastify would
 * log its late answer's URL raw (Webpay's GET return carries its token there) and its late error raw (a failed
 * query's parameters: RUTs, token hashes): the answer is dropped with a plain line instead, the error scrubbed.
 */
function quietLateOutcome(reply: FastifyReply): void {
  reply.log = reply.log.child({}, { serializers: { err: loggableError } });
  const send = reply.send.bind(reply);
  let dropped = false;
  reply.send = ((payload?: unknown) => {
    if (!reply.sent) return send(payload);
    if (!dropped) reply.log.warn('the late answer of a request that timed out was dropped');
    dropped = true;
    return reply;
  }) as FastifyReply['send'];
}

/**
 * One place turns every failure into the catalogue envelope: schema failures and client faults are 4xx with the
 * route's response name; the database being unreachable or too slow, or the request timing out, is 503 with
 * Retry-After; anything else unexpected is a bare 500 with no stack or SQL.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const responseName = request.routeOptions.config?.responseName ?? DEFAULT_RESPONSE_NAME;
    // Fastify's handlerTimeout (REQUEST_TIMEOUT_MS): the database or Webpay unreachable without a reset. Their own
    // timeouts are shorter and answer first, after rolling back; this bounds whatever they miss.
    if (error.code === 'FST_ERR_HANDLER_TIMEOUT') {
      request.log.error({ error: loggableError(error) }, 'request timed out');
      reply.code(503).header('retry-after', '5').send(errorEnvelope(responseName, '503'));
      quietLateOutcome(reply);
      return reply;
    }
    const status = error.statusCode ?? 500;
    if (error.validation) {
      return reply.code(400).send(errorEnvelope(responseName, '400'));
    }
    if (status === 415) return reply.code(415).send(errorEnvelope(responseName, '415'));
    if (status === 429) return reply.code(429).send(errorEnvelope(responseName, '514'));
    if (status >= 400 && status < 500) return reply.code(status).send(errorEnvelope(responseName, '400'));
    const failure = databaseFailure(error);
    if (failure === 'input') {
      request.log.warn({ error: loggableError(error) }, 'the database refused a value of the request');
      return reply.code(400).send(errorEnvelope(responseName, '400'));
    }
    if (failure === 'unavailable' || serverTimeout(error)) {
      request.log.error({ error: loggableError(error) }, 'database unavailable');
      return reply.code(503).header('retry-after', '5').send(errorEnvelope(responseName, '503'));
    }
    request.log.error({ error: loggableError(error) }, 'unexpected fault');
    return reply.code(500).send(errorEnvelope(responseName, '500'));
  });
}
