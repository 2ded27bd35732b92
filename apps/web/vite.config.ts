import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API server (apps/api) is the member's one origin in production; in development Vite serves the SPA and
// hands every server path to it.
const API_ORIGIN = 'http://localhost:3000';
const proxied = ['/prod', '/api', '/admin', '/sandbox'];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // The cooperative's slug, name and site come from the same variables the API reads (README, Configuration).
  envPrefix: ['PRODUCT_'],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // A strict CSP (script-src 'self') is served: no inline module-preload polyfill.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      treeshake: {
        // @pago/domain keeps some zod schemas beside plain values (rut.ts has rutSchema).
        // Building a schema has no side effect, but bundlers cannot know that of a call, so an unused schema would
        // drag all of zod (~20 KB gzip) into the home chunk. Treating `z.…(…)` as pure lets unused schemas go.
        // Never write a bare `z.config(…)` statement in code the web bundles: it would be dropped.
        manualPureFunctions: ['z'],
      },
      output: {
        codeSplitting: {
          // What every screen needs, in one long-cached chunk: one gzip stream compresses better than five.
          groups: [{ name: 'framework', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|zustand)[\\/]/ }],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: API_ORIGIN, changeOrigin: false }])),
  },
});
