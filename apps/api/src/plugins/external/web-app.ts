import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Paths owned by the server; anything else that is a GET for a page is the SPA's. */
const SERVER_PREFIXES = ['/prod/', '/api/', '/admin', '/sandbox', '/health', '/ready', '/docs', '/metrics'];

export type SpaFallback = (url: string, reply: FastifyReply) => boolean;

/** Serves the built SPA; returns the fallback that answers the SPA's own routes with its shell. */
export async function registerWebApp(app: FastifyInstance, webDist: string | undefined): Promise<SpaFallback | null> {
  if (!webDist || !existsSync(join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'web build not found: the member screens are not served (run npm run build)');
    return null;
  }
  // Read once: the shell is served for every route of the SPA.
  const indexHtml = await readFile(join(webDist, 'index.html'));
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
  const sendShell = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  app.get('/', (_request, reply) => sendShell(reply));
  return (url, reply) => {
    if (SERVER_PREFIXES.some((p) => url.startsWith(p))) return false;
    void sendShell(reply);
    return true;
  };
}
