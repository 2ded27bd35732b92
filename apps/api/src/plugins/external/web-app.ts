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
  const shells = await readShells(webDist);
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The build writes .br and .gz beside every asset: served as is, no compression work per request.
    preCompressed: true,
    // Each page is served with a nonce of its own (below), never as a file.
    allowedPath: (pathname) => !pathname.endsWith('.html') && !pathname.startsWith('/shells/'),
    setHeaders(reply, path) {
      // Vite fingerprints everything under assets/, so those never change; the shell must always be fresh.
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // A nonce of this response only, in the page and in its policy.
  const sendShell = (url: string, reply: FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', headers.shellPolicy(nonce))
      .send(shells.pageFor(url).join(nonce));
  };
  app.get('/', (request, reply) => sendShell(request.url, reply));
  return (url, reply) => {
    if (SERVER_PREFIXES.some((p) => url.startsWith(p))) return false;
    void sendShell(url, reply);
    return true;
  };
}

/** The build's list of pages (apps/web/scripts/prerender.mjs): which prerendered file answers which route. */
interface ShellRoutes {
  /**
   * The first that matches answers: a page drawn for one value of a parameter or of the query comes first. `query`:
   * the keys the address's query must have, once each and no other, with the pattern each value matches in full.
   */
  routes: { path: string; query?: Record<string, string>; file: string }[];
  fallback: string;
}

/**
 * Every page the web build wrote, read once and split at the nonce placeholder. The build draws each route's page
 * (decision 037): the home in full, the other screens' frame with the code they run. A build without that list
 * (older builds, tests) has one page, index.html, for every route.
 */
async function readShells(webDist: string): Promise<{ pageFor(url: string): string[] }> {
  const read = async (file: string) => (await readFile(join(webDist, file), 'utf8')).split(CSP_NONCE_PLACEHOLDER);
  const index = await read('index.html');
  const listPath = join(webDist, 'shells', 'routes.json');
  if (!existsSync(listPath)) return { pageFor: () => index };
  const list = JSON.parse(await readFile(listPath, 'utf8')) as ShellRoutes;
  const pages = new Map<string, string[]>([['index.html', index]]);
  for (const file of [...list.routes.map((route) => route.file), list.fallback]) {
    if (!pages.has(file)) pages.set(file, await read(file));
  }
  const matchers = list.routes.map((route) => ({
    test: routeMatcher(route.path),
    query: route.query ? queryMatcher(route.query) : () => true,
    page: pages.get(route.file) ?? index,
  }));
  const fallback = pages.get(list.fallback) ?? index;
  return {
    pageFor(url) {
      const [pathname = '/', search = ''] = url.split('#', 1)[0]?.split(/\?(.*)/s) ?? [];
      const query = new URLSearchParams(search);
      return matchers.find((matcher) => matcher.test(pathname) && matcher.query(query))?.page ?? fallback;
    },
  };
}

/** A query with exactly `patterns`' keys, each once, each value matching its pattern in full. */
export function queryMatcher(patterns: Record<string, string>): (query: URLSearchParams) => boolean {
  const tests = Object.entries(patterns).map(([key, pattern]) => [key, new RegExp(`^(?:${pattern})$`)] as const);
  return (query) => {
    const keys = [...query.keys()];
    if (keys.length !== tests.length) return false;
    return tests.every(([key, pattern]) => query.getAll(key).length === 1 && pattern.test(query.get(key) ?? ''));
  };
}

/**
 * A route path of the SPA ('/pagoexpress/steptwo/:category') as the browser's router matches it: case-sensitive,
 * a `:param` is one non-empty segment, a trailing slash is allowed.
 */
export function routeMatcher(path: string): (pathname: string) => boolean {
  const pattern = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  const regex = new RegExp(`^${pattern === '' ? '' : pattern}/?$`);
  return (pathname) => regex.test(pathname);
}
