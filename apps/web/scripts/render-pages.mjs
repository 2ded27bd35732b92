#!/usr/bin/env node
// Renders pages as the build does (src/prerender/entry.tsx), through Vite's dev server in this process, and prints
// them as JSON: `node scripts/render-pages.mjs home:/ screen:/pagoexpress/maintenance`. For tests, which must not run
// the server renderer in the browser's realm (it leaves React contexts set there), and for a look at a page.
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = await createServer({ root, logLevel: 'error', server: { middlewareMode: true, hmr: false, watch: null }, appType: 'custom' });
try {
  const { renderShell } = await server.ssrLoadModule('/src/prerender/entry.tsx');
  const pages = {};
  for (const arg of process.argv.slice(2)) {
    const [kind, path] = arg.split(/:(.*)/s);
    pages[arg] = await renderShell(path, kind);
  }
  process.stdout.write(JSON.stringify(pages));
} finally {
  await server.close();
}
