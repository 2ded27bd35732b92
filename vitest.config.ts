import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { wrongRuntime } from './scripts/runtime.mjs';

// Every suite runs on the Node the product runs on (decision 040), never on whatever Node started vitest.
const wrong = wrongRuntime();
if (wrong) throw new Error(`vitest: ${wrong}`);

// One runner for every layer; each project says where its tests live and what they run in.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
      {
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'alerts',
          include: ['ops/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts', 'apps/webpay-sim/src/**/*.test.ts', 'apps/core-sim/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 10_000, interval: 50 } },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // What a member waits for (the captcha's proof of work, the list) takes longer on a loaded machine: poll for
          // it as long as a member would wait, not vitest's default second.
          expect: { poll: { timeout: 20_000, interval: 100 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
