import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

// The API server (apps/api) is the member's one origin in production; in development Vite serves the SPA and
// hands every server path to it.
const API_ORIGIN = 'http://localhost:3000';
const proxied = ['/prod', '/api', '/admin', '/sandbox'];
// Must equal CSP_NONCE_PLACEHOLDER in apps/api/src/plugins/external/web-app.ts.
const CSP_NONCE_PLACEHOLDER = 'pago-csp-nonce';

// React Router 7's package exports only its development build (dev warnings on); the production build beside it is
// the same code with them off. The build takes it; `vite` (dev) and Vitest keep the warnings.
const REACT_ROUTER_PRODUCTION = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/**
 * React Router ships one module for the whole library, and some of its top-level statements look like side effects
 * to the bundler: `React.forwardRef(…)`, `React.createContext(…)` and `React.memo(…)` calls without a pure
 * annotation, and `X.displayName = "…"` assignments (only read by React DevTools). They keep NavLink, Form, the
 * await and framework-mode code in the bundle although no screen uses them, and the framework chunk is on the
 * home's first load. This marks those calls pure and drops the display names, in React Router's files only.
 * Measured: about 1.9 KB gzip off the home, 2.4 KB with the production build (docs/PERFORMANCE.md).
 */
function reactRouterTreeShaking(): Plugin {
  return {
    name: 'pago:react-router-tree-shaking',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/].*\.mjs$/ },
      handler(code) {
        return {
          code: code
            .replace(/= (React\d*\.(?:forwardRef|createContext|memo)\()/g, '= /* @__PURE__ */ $1')
            .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm, ''),
          map: null,
        };
      },
    },
  };
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text asset of the build, at the highest levels, once per
 * build rather than per request. The API serves them to browsers that accept them (@fastify/static `preCompressed`).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'pago:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((file) => /\.(?:js|css|svg)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const source = await readFile(path);
          if (source.length < 1024) return;
          await writeFile(`${path}.gz`, gzipSync(source, { level: 9 }));
          await writeFile(
            `${path}.br`,
            brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
          );
        }),
      );
    },
  };
}


// What every screen needs, in one long-cached chunk: one gzip stream compresses better than five.
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|zustand)[\\/]/;

/**
 * The app's modules that several screens share (components, helpers, the domain's plain modules) would otherwise
 * be a dozen chunks of a few hundred bytes each. Over HTTP/1.1 a browser fetches six at a time, each a round trip,
 * so a screen opened directly waited for two or three waves of them. This puts them in one chunk, except what the
 * home's first load already holds (it stays there) and any module that needs a library the first load does not
 * have (zod, Radix, TanStack Query, the captcha), so that the shared chunk never drags one of those along.
 */
function screensCommonChunk() {
  const firstLoad = new Set<string>();
  /** The entry's own modules (src/main.tsx), which stay in the entry chunk. */
  const entryModules = new Set<string>();
  const needsLibrary = new Set<string>();
  const plugin: Plugin = {
    name: 'pago:screens-common-chunk',
    apply: 'build',
    buildEnd() {
      const info = (id: string) => this.getModuleInfo(id);
      const ids = [...this.getModuleIds()];
      const staticClosure = (from: string[]) => {
        const pending = [...from];
        for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
          if (firstLoad.has(id)) continue;
          firstLoad.add(id);
          pending.push(...(info(id)?.importedIds ?? []));
        }
      };
      // The first load: the entry and its static imports, then the app the entry imports after the first paint
      // (src/main.tsx) and the app's static imports; the app's own dynamic imports (the screens) are not part of it.
      staticClosure(ids.filter((id) => info(id)?.isEntry));
      for (const id of firstLoad) entryModules.add(id);
      staticClosure([...entryModules].flatMap((id) => info(id)?.dynamicallyImportedIds ?? []));
      // Before tree-shaking: a domain module that imports zod counts even if the web uses none of its schemas.
      const visiting = new Set<string>();
      const reachesLibrary = (id: string): boolean => {
        if (needsLibrary.has(id)) return true;
        const library = /[\\/]node_modules[\\/]/.test(id) && !FRAMEWORK.test(id);
        if (!library && (firstLoad.has(id) || visiting.has(id))) return false;
        visiting.add(id);
        const found = library || (info(id)?.importedIds ?? []).some(reachesLibrary);
        if (found) needsLibrary.add(id);
        return found;
      };
      ids.forEach(reachesLibrary);
    },
  };
  const test = (id: string) =>
    /[\\/](apps[\\/]web[\\/]src[\\/](components|lib)|packages[\\/]domain[\\/]src)[\\/]/.test(id) &&
    !firstLoad.has(id) &&
    !needsLibrary.has(id);
  // The app's own modules of the first load, in one chunk: imported after the first paint rather than by the entry,
  // they would otherwise split into a chunk per module the screens share with the home.
  const firstLoadTest = (id: string) => firstLoad.has(id) && !entryModules.has(id) && !/[\\/]node_modules[\\/]/.test(id);
  return { plugin, test, firstLoadTest };
}

const screensCommon = screensCommonChunk();

/**
 * `vite build --ssr`: the build's own server-side entry, run once by scripts/prerender.mjs to draw the HTML every page
 * arrives with (decision 037). Never served.
 */
const prerenderConfig = {
  plugins: [react()],
  envPrefix: ['PRODUCT_'],
  resolve: { alias: [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }] },
  build: {
    outDir: 'dist-prerender',
    emptyOutDir: true,
    rolldownOptions: { output: { entryFileNames: 'entry.js' } },
  },
};

export default defineConfig(({ command, isSsrBuild }) => isSsrBuild ? prerenderConfig : ({
  plugins: [react(), tailwindcss(), reactRouterTreeShaking(), precompress(), screensCommon.plugin],
  // The cooperative's slug, name and site come from the same variables the API reads (README, Configuration).
  envPrefix: ['PRODUCT_'],
  // The API swaps this for a fresh nonce in every shell it serves (web-app.ts); the modal's scroll lock needs it.
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }] } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/check-budgets.mjs reads it to find what the home loads.
    manifest: true,
    // A strict CSP (script-src 'self') is served: no inline module-preload polyfill.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      treeshake: {
        // @pago/domain's schema modules (schemas/) each hold several zod schemas, of which a screen uses some.
        // Building a schema has no side effect, but bundlers cannot know that of a call, so an unused schema would
        // stay, with the part of zod it needs. Treating `z.…(…)` as pure lets unused schemas go.
        // Never write a bare `z.config(…)` statement in code the web bundles: it would be dropped.
        manualPureFunctions: ['z'],
      },
      output: {
        codeSplitting: {
          groups: [
            { name: 'framework', test: FRAMEWORK },
            // Vite's helper for dynamic imports, which the entry needs to import the app: on its own, so that the entry
            // does not import the app's chunk (and React with it) before the first paint.
            { name: 'preload-helper', test: /vite[\\/]preload-helper/ },
            { name: 'app', test: screensCommon.firstLoadTest },
            { name: 'screens-common', test: screensCommon.test, minShareCount: 2, includeDependenciesRecursively: false },
            // TanStack Query (the voucher's and step 3's server state) in one chunk rather than four.
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: API_ORIGIN, changeOrigin: false }])),
  },
}));
