#!/usr/bin/env node
// Size budgets of the home's first load, read from the production build (apps/web/dist): index.html and Vite's
// manifest. Run after `npm run build`; exits 1 with a table when a budget is exceeded. docs/PERFORMANCE.md.
//
// What counts as "the home's first load": the entry chunk of index.html, every chunk it imports statically
// (transitively: the framework and the runtime) or dynamically itself (the app it starts after the first paint, with
// that chunk's static imports), everything index.html names (its module script, modulepreloads and stylesheets), and
// the CSS of those chunks. Lazy chunks (dynamic imports: the other screens, the error catalogue)
// are not part of it; they are listed below the table for information.
// Sizes are gzip at level 9 of each file as written, 1 KB = 1000 bytes (the unit Vite prints).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGETS = { js: 90_000, css: 15_000 };

const dist = process.argv[2] ?? fileURLToPath(new URL('../apps/web/dist', import.meta.url));
const manifestPath = join(dist, '.vite', 'manifest.json');
for (const required of [join(dist, 'index.html'), manifestPath]) {
  if (!existsSync(required)) {
    console.error(`check-budgets: ${required} is missing. Run \`npm run build\` first (build.manifest must be on).`);
    process.exit(2);
  }
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
/** @type {Record<string, {file: string, isEntry?: boolean, imports?: string[], dynamicImports?: string[], css?: string[], src?: string}>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
if (!entryKey) {
  console.error('check-budgets: the manifest has no entry for index.html');
  process.exit(2);
}

// The static import closure of the entry.
const firstLoad = new Set();
const css = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || firstLoad.has(chunk.file)) return;
  firstLoad.add(chunk.file);
  for (const sheet of chunk.css ?? []) css.add(sheet);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(entryKey);
// The entry imports the app once the page has painted (apps/web/src/main.tsx, decision 037): the app is part of the
// first load all the same. Lazy screens are the app's dynamic imports, not the entry's.
for (const key of manifest[entryKey].dynamicImports ?? []) visit(key);

// Whatever index.html itself makes the browser fetch, in case it names something the closure does not.
const attr = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
  const rel = attr(tag, 'rel');
  const url = tag.startsWith('<script') ? attr(tag, 'src') : attr(tag, 'href');
  if (!url || /^[a-z]+:/i.test(url)) continue;
  const file = url.replace(/^\//, '');
  if (tag.startsWith('<script') || rel === 'modulepreload') firstLoad.add(file);
  else if (rel === 'stylesheet') css.add(file);
}

const measure = (file) => {
  const path = join(dist, file);
  if (!existsSync(path)) {
    console.error(`check-budgets: ${file} is referenced by the build but missing from ${dist}`);
    process.exit(2);
  }
  const bytes = readFileSync(path);
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

const kb = (bytes) => (bytes / 1000).toFixed(2).padStart(8);
const rows = (files) => [...files].map(measure).sort((a, b) => b.gzip - a.gzip);
const total = (list) => list.reduce((sum, row) => sum + row.gzip, 0);

const js = rows(firstLoad);
const styles = rows(css);
const checks = [
  { name: 'home JS', list: js, budget: BUDGETS.js },
  { name: 'home CSS', list: styles, budget: BUDGETS.css },
];

let failed = false;
console.log('Home first load (production build, gzip -9, 1 KB = 1000 bytes)\n');
console.log(`${'file'.padEnd(48)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}`);
for (const { name, list, budget } of checks) {
  for (const row of list) console.log(`  ${row.file.padEnd(46)} ${kb(row.raw)} ${kb(row.gzip)}`);
  const sum = total(list);
  const ok = sum <= budget;
  failed ||= !ok;
  console.log(`${`${name} total`.padEnd(48)} ${''.padStart(8)} ${kb(sum)}   budget ${kb(budget).trim()}  ${ok ? 'ok' : 'OVER BUDGET'} (${((sum / budget) * 100).toFixed(1)}%)\n`);
}

// For information: the largest chunks the home does not load.
const lazy = Object.values(manifest)
  .map((chunk) => chunk.file)
  .filter((file, index, all) => file.endsWith('.js') && !firstLoad.has(file) && all.indexOf(file) === index)
  .map(measure)
  .sort((a, b) => b.gzip - a.gzip)
  .slice(0, 5);
console.log('Largest lazy chunks (not budgeted): ' + lazy.map((row) => `${row.file.replace(/^assets\//, '')} ${kb(row.gzip).trim()}`).join(', '));

if (failed) {
  console.error('\ncheck-budgets: a budget is exceeded (see the table above; docs/PERFORMANCE.md explains them).');
  process.exit(1);
}
