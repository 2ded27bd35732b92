#!/usr/bin/env node
// Renders pages as the build does (src/prerender/entry.tsx), through Vite's dev server, and prints them as JSON:
// `node scripts/render-pages.mjs home:/ screen:/pagoexpress/maintenance`. For tests (renderPagesInChild), which must
// not run the server renderer in the browser's realm: it leaves React contexts set there.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

/** Each `kind:path` page's markup of #root, rendered in a process of its own. */
export function renderPagesInChild(specs) {
  return JSON.parse(execFileSync(process.execPath, [SELF, ...specs], { encoding: 'utf8' }));
}

async function main(specs) {
  const { createServer } = await import('vite');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const server = await createServer({ root, logLevel: 'error', server: { middlewareMode: true, hmr: false, watch: null }, appType: 'custom' });
  try {
    const { renderShell } = await server.ssrLoadModule('/src/prerender/entry.tsx');
    const pages = {};
    for (const spec of specs) {
      const [kind, path] = spec.split(/:(.*)/s);
      pages[spec] = await renderShell(path, kind);
    }
    process.stdout.write(JSON.stringify(pages));
  } finally {
    await server.close();
  }
}

if (process.argv[1] === SELF) await main(process.argv.slice(2));
