import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SecurityHeaders } from './security-headers';

/** What the web build writes where each shell gets its nonce (vite.config.ts, `html.cspNonce`). */
export const CSP_NONCE_PLACEHOLDER = 'pago-csp-nonce';

/** Paths owned by the server; anything else that is a GET for a page is the SPA's. */
const SERVER_PREFIXES = ['/prod/', '/api/', '/admin', '/operador', '/sandbox', '/health', '/ready', '/docs', '/metrics'];

export type SpaFallback = (url: string, reply: FastifyReply) => boolean;

/** Serves the built SPA; returns the fallback that answers the SPA's own routes with its shell. */
export async function registerWebApp(app: FastifyInstance, webDist: string | undefined, headers: SecurityHeaders): Promise<SpaFallback | null> {
  if (!webDist || !existsSync(join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'web build not found: the member screens are not served (run npm run build)');
    return null;
  }
  // Read once: the shell is served for every route of the SPA.
  const shellParts = (await readFile(join(webDist, 'index.html'), 'utf8')).split(CSP_NONCE_PLACEHOLDER);
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The build writes .br and .gz beside every asset: served as is, no compression work per request.
    preCompressed: true,
    setHeaders(reply, path) {
      // Vite fingerprints everything under assets/, so those never change; the shell must always be fresh.
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // A nonce of this response only, in the shell and in its policy.
  const sendShell = (reply: FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', headers.shellPolicy(nonce))
      .send(shellParts.join(nonce));
  };
  app.get('/', (_request, reply) => sendShell(reply));
  return (url, reply) => {
    if (SERVER_PREFIXES.some((p) => url.startsWith(p))) return false;
    void sendShell(reply);
    return true;
  };
}
