import type { FastifyInstance } from 'fastify';

export interface SecurityHeaderOptions {
  production: boolean;
  /** Origins the member's browser may post a form to (Webpay's hosted form). */
  formTargets: string[];
}

/**
 * Every response's security headers, built once at start: they depend on the configuration only, so building them
 * per request (as @fastify/helmet does, see decision 009) spent CPU on every call for the same strings. The set is
 * the one helmet sends by default, with our policy.
 */
export function securityHeaders(options: SecurityHeaderOptions): Readonly<Record<string, string>> {
  // The SPA is built with no inline script or style, so the policy allows our own origin only.
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['form-action', ["'self'", ...options.formTargets]],
  ];
  if (options.production) directives.push(['upgrade-insecure-requests', []]);
  const csp = directives.map(([name, sources]) => [name, ...sources].join(' ')).join(';');
  return Object.freeze({
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

/**
 * Sets the security headers and the request id before any handler runs, so errors, limits, redirects and static
 * files carry them too. Set here rather than in an `onSend` hook: with no `onSend` hook at all, Fastify writes every
 * answer without running a hook chain for it.
 */
export function registerResponseHeaders(app: FastifyInstance, headers: Readonly<Record<string, string>>): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}
