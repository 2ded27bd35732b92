import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_RESPONSE_NAME } from '../app/error-handler';
import { documentOf, errorResponses, redirect } from '../../routes/responses';

/** The console's server paths under /operador: everything else there is one of its screens. */
const SERVER_PATHS = ['/operador/api/', '/operador/entrar', '/operador/callback', '/operador/salir'];

/**
 * Serves the operator console's build (apps/console/dist) under /operador on the operator's listener: its assets,
 * and its shell for every screen. Without a build, the console's screens are not served (the API still is).
 */
export async function registerConsoleApp(operator: FastifyInstance, consoleDist: string | undefined): Promise<void> {
  if (!consoleDist || !existsSync(join(consoleDist, 'index.html'))) {
    operator.log.warn({ consoleDist }, 'console build not found: the operator console is not served (run npm run build)');
    return;
  }
  const shell = await readFile(join(consoleDist, 'index.html'), 'utf8');
  await operator.register(fastifyStatic, {
    root: consoleDist,
    prefix: '/operador/',
    wildcard: false,
    index: false,
    // The member's web build may have decorated the same instance (no ADMIN_PORT): one decoration is enough.
    decorateReply: false,
    setHeaders(reply, path) {
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendShell = (reply: FastifyReply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(shell);
  const errors = errorResponses(DEFAULT_RESPONSE_NAME);
  const shellSchema = { response: { 200: documentOf('text/html', "The operator console's page"), ...errors } };
  operator.get('/operador', { schema: { response: { 302: redirect('To /operador/'), ...errors } } }, (_request, reply) => reply.redirect('/operador/', 302));
  operator.get('/operador/', { schema: shellSchema }, (_request, reply) => sendShell(reply));
  operator.get('/operador/*', { schema: shellSchema }, (request, reply) => {
    if (SERVER_PATHS.some((p) => request.url.startsWith(p))) return reply.callNotFound();
    return sendShell(reply);
  });
}
