import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The operator console, served by the API under /operador on the operator's listener (apps/api, console-app.ts).
// In development Vite serves it and hands the API's paths to the operator's listener.
const OPERATOR_ORIGIN = process.env.OPERATOR_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  base: '/operador/',
  plugins: [react(), tailwindcss()],
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false } },
  server: {
    proxy: Object.fromEntries(['/admin', '/operador/api', '/operador/entrar', '/operador/callback', '/operador/salir', '/sandbox'].map((p) => [p, { target: OPERATOR_ORIGIN }])),
  },
});
