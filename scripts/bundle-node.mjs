// Bundles a Node server of the workspace into dist/server.js: our @pago/* packages inlined (they ship TypeScript),
// third-party packages left external in node_modules.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export async function bundleServer(packageDir) {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@pago/'));
  await build({
    entryPoints: [join(packageDir, 'src/server.ts')],
    outfile: join(packageDir, 'dist/server.js'),
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    sourcemap: true,
    external,
    logLevel: 'warning',
  });
}
