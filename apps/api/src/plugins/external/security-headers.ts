import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

export interface SecurityHeaderOptions {
  production: boolean;
  /** Origins the member's browser may post a form to (Webpay's hosted form). */
  formTargets: string[];
}

/** helmet's defaults, with our policy: the SPA is built with no inline script or style, so only our own origin. */
export function helmetOptions(options: SecurityHeaderOptions): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'", ...options.formTargets],
        ...(options.production ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  };
}

/**
 * @fastify/helmet on every answer, and the request id. Fastify's router refuses a malformed URL before any hook runs,
 * so that answer gets the same headers from helmet itself (`forRouterErrors`, used by app.ts's frameworkErrors).
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  await app.register(fastifyHelmet, helmetOptions(options));
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

export function securityHeadersForRouterErrors(options: SecurityHeaderOptions): (request: FastifyRequest, reply: FastifyReply) => void {
  const { global: _global, enableCSPNonces: _nonces, ...configuration } = helmetOptions(options) as FastifyHelmetOptions & { global?: boolean; enableCSPNonces?: boolean };
  const apply = helmet(configuration as Parameters<typeof helmet>[0]);
  return (request, reply) => {
    apply(request.raw, reply.raw, () => {});
    reply.header('x-request-id', request.id);
  };
}
