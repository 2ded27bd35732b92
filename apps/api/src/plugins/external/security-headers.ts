import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export interface SecurityHeaderOptions {
  production: boolean;
  /** Origins the member's browser may post a form to (Webpay's hosted form). */
  formTargets: string[];
}

/** Our own origin only: the SPA is built with no inline script or style. */
function policyDirectives(options: SecurityHeaderOptions): Record<string, string[]> {
  return {
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
  };
}

/** helmet's defaults, with our policy. */
export function helmetOptions(options: SecurityHeaderOptions): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: policyDirectives(options) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  };
}

/**
 * helmet's headers on every answer, and the request id. The middleware is built once: @fastify/helmet builds it
 * again for every request, which halved call 1's capacity (decision 018). Fastify's router refuses a malformed URL
 * before any hook runs, so app.ts's frameworkErrors applies the same middleware itself (`forRouterErrors`).
 */
export function securityHeaders(options: SecurityHeaderOptions): SecurityHeaders {
  const apply = helmet(helmetOptions(options));
  const directives = policyDirectives(options);
  const onRequest = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    apply(request.raw, reply.raw, () => {});
    reply.header('x-request-id', request.id);
    done();
  };
  return {
    register: (app) => app.addHook('onRequest', onRequest),
    forRouterErrors: (request, reply) => onRequest(request, reply, () => {}),
    shellPolicy: (nonce) =>
      Object.entries({ ...directives, 'style-src': [...(directives['style-src'] ?? []), `'nonce-${nonce}'`] })
        .map(([name, values]) => [name, ...values].join(' '))
        .join(';'),
  };
}

export interface SecurityHeaders {
  register(app: FastifyInstance): void;
  forRouterErrors(request: FastifyRequest, reply: FastifyReply): void;
  /**
   * The policy of the SPA's shell: the same, with a style nonce of that response. Radix's dialogs lock scrolling
   * with a <style> element they insert, which only a nonce lets through without 'unsafe-inline'.
   */
  shellPolicy(nonce: string): string;
}
