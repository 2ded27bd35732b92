import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyError, FastifyInstance } from 'fastify';
import { databaseFailure, loggableError } from '../../loggable-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The key the route's answer is wrapped in (spec §7), used for errors too. */
    responseName?: string;
  }
}

const DEFAULT_RESPONSE_NAME = 'errorResponse';

/**
 * One place turns every failure into the catalogue envelope: schema failures and client faults are 4xx with the
 * route's response name; the database being unreachable is 503; anything else unexpected is a bare 500 with no
 * stack or SQL.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const responseName = request.routeOptions.config?.responseName ?? DEFAULT_RESPONSE_NAME;
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
    if (failure === 'unavailable') {
      request.log.error({ error: loggableError(error) }, 'database unavailable');
      return reply.code(503).header('retry-after', '5').send(errorEnvelope(responseName, '503'));
    }
    request.log.error({ error: loggableError(error) }, 'unexpected fault');
    return reply.code(500).send(errorEnvelope(responseName, '500'));
  });
}
