import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** formTargets: origins the member's browser may post a form to (Webpay's hosted form). */
export async function registerSecurityHeaders(app: FastifyInstance, options: { production: boolean; formTargets: string[] }) {
  await app.register(helmet, {
    // The SPA is built with no inline script or style, so the policy allows our own origin only.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'", ...options.formTargets],
        upgradeInsecureRequests: options.production ? [] : null,
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
}
