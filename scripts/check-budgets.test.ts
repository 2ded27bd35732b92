import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `npm test` runs check-budgets.mjs on the real build (test:e2e); these prove it fails a build over the budget.
const SCRIPT = fileURLToPath(new URL('./check-budgets.mjs', import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A build whose home loads about `kb` KB gzip of JavaScript: its entry, the app the entry imports, the framework. */
function build(kb: number, lazyKb = 0): string {
  const dist = mkdtempSync(join(tmpdir(), 'pago-budgets-'));
  dirs.push(dist);
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, '.vite'));
  // Random base64 barely compresses: gzip keeps about three quarters of it.
  const code = (gzipKb: number) => `export const x = "${randomBytes(Math.round((gzipKb * 1000) / 1.02)).toString('base64')}";`;
  writeFileSync(join(dist, 'assets', 'index.js'), code(1));
  writeFileSync(join(dist, 'assets', 'app.js'), code(kb / 2 - 1));
  writeFileSync(join(dist, 'assets', 'framework.js'), code(kb / 2));
  writeFileSync(join(dist, 'assets', 'lazy.js'), code(lazyKb));
  writeFileSync(join(dist, 'assets', 'index.css'), 'body{color:red}');
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html><head><script type="module" crossorigin src="/assets/index.js"></script>' +
      '<link rel="stylesheet" href="/assets/index.css"></head>' +
      '<body><div id="root"></div></body></html>',
  );
  // As the web build: the entry imports the app after the first paint; the app imports the screens lazily.
  const manifest = {
    'index.html': { file: 'assets/index.js', isEntry: true, dynamicImports: ['src/app.tsx'], css: ['assets/index.css'] },
    'src/app.tsx': { file: 'assets/app.js', isDynamicEntry: true, imports: ['_framework.js'], dynamicImports: ['src/lazy.tsx'] },
    '_framework.js': { file: 'assets/framework.js' },
    'src/lazy.tsx': { file: 'assets/lazy.js', isDynamicEntry: true, imports: ['_framework.js'] },
  };
  writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dist;
}

const check = (dist: string) => spawnSync(process.execPath, [SCRIPT, dist], { encoding: 'utf8' });

describe('check-budgets (npm run test:budgets)', () => {
  it('passes a build whose home JavaScript is within 90 KB gzip, however large its lazy chunks', () => {
    const result = check(build(80, 200));
    expect(result.stdout).toMatch(/home JS total .* ok/);
    expect(result.status).toBe(0);
  });

  it('fails a build whose home JavaScript is over 90 KB gzip, naming the budget', () => {
    const result = check(build(100));
    expect(result.stdout).toMatch(/home JS total .* OVER BUDGET/);
    expect(result.stderr).toContain('a budget is exceeded');
    expect(result.status).toBe(1);
  });
});
