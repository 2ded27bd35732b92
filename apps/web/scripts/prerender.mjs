#!/usr/bin/env node
// The last step of the web build (decision 037): writes the HTML every page arrives with, drawn at build time by
// src/prerender/entry.tsx (built with `vite build --ssr` into dist-prerender/).
//
// - dist/index.html: the home, in full (the home's routes). It names only the entry, which imports the app after the
//   first paint (src/main.tsx).
// - dist/shells/<route id>.html: the site's frame around the loader, plus a modulepreload of the app and of the code
//   that route's screen runs, so that it downloads beside the stylesheet. Nothing a route does not run.
// Every #root arrives inert; the app lifts it once it has taken the page over (src/app/start.tsx).
// - dist/shells/routes.json: which file answers which path, in the route table's order (the API reads it).

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WEB = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(WEB, 'dist');
const SSR = join(WEB, 'dist-prerender');
const SHELLS = 'shells';

const fail = (message) => {
  console.error(`prerender: ${message}`);
  process.exit(1);
};

// React's production build, as in the browser: no development-only attributes in the pages.
process.env.NODE_ENV = 'production';

const template = readFileSync(join(DIST, 'index.html'), 'utf8');
/** @type {Record<string, {file: string, isEntry?: boolean, imports?: string[], css?: string[]}>} */
const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8'));
const { renderShell, ROUTES, HOME_ROUTE_IDS } = await import(pathToFileURL(join(SSR, 'entry.js')).href);

const ROOT_TAG = '<div id="root"></div>';
if (!template.includes(ROOT_TAG)) fail(`dist/index.html has no ${ROOT_TAG}`);

/** The screen module each route renders, read from the route table's screens (src/app/screens.tsx). */
function screenModules() {
  const source = readFileSync(join(WEB, 'src/app/screens.tsx'), 'utf8');
  const importOf = (text) => /import\('([^']+)'\)/.exec(text)?.[1];
  // The query provider, fetched beside the screens that have server state (`screen(…, …, true)`).
  const withServerState = (text) => /,\s*true,?\s*\)\s*,?\s*;?\s*$/.test(text.trim());
  const named = new Map();
  for (const [, name, body] of source.matchAll(/^(?:export )?const (\w+) = screen\(([\s\S]*?)\);$/gm)) {
    named.set(name, { spec: importOf(body), serverState: withServerState(`${body})`) });
  }
  const table = /export const SCREENS[^=]*= \{\n([\s\S]*?)\n\};/.exec(source)?.[1];
  if (!table) fail('src/app/screens.tsx has no SCREENS table');
  const screens = new Map();
  const entries = table.split(/\n(?= {2}\w+: )/);
  for (const entry of entries) {
    const [, id, value] = /^\s*(\w+): ([\s\S]*?),?\s*$/.exec(entry) ?? [];
    if (!id || !value) continue;
    const screen = /^\w+$/.test(value) ? named.get(value) : { spec: importOf(value), serverState: withServerState(value) };
    if (!screen?.spec) fail(`no screen module found for route ${id} in src/app/screens.tsx`);
    screens.set(id, screen);
  }
  const notFound = named.get('NotFoundPage');
  if (!notFound?.spec) fail('no NotFoundPage in src/app/screens.tsx');
  return { screens, notFound };
}

/** The manifest's key of a module imported as `spec` from src/app/. */
function manifestKey(spec) {
  const base = posix.join('src/app', spec);
  const key = ['.tsx', '.ts'].map((ext) => base + ext).find((candidate) => manifest[candidate]);
  if (!key) fail(`${base} is not in the build's manifest`);
  return key;
}

/** A chunk and every chunk it imports statically, and their CSS. */
function closure(key, files = new Set(), css = new Set()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return { files, css };
  files.add(chunk.file);
  for (const sheet of chunk.css ?? []) css.add(sheet);
  for (const imported of chunk.imports ?? []) closure(imported, files, css);
  return { files, css };
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
if (!entryKey) fail('the manifest has no entry for index.html');
// The entry imports the app itself once the page has painted (src/main.tsx). The home asks for the app's code only
// then: the home paints from its HTML and stylesheet alone, and its JavaScript then competes with nothing. A screen's
// content needs that code and its own, so a screen's page preloads both, beside the stylesheet.
const entry = closure(entryKey);
const app = { files: new Set(), css: new Set() };
for (const key of manifest[entryKey].dynamicImports ?? []) closure(key, app.files, app.css);
if (app.files.size === 0) fail('the entry imports no app after the first paint (src/main.tsx)');
const appCode = {
  files: [...app.files].filter((file) => !entry.files.has(file)),
  css: [...app.css].filter((file) => !entry.css.has(file)),
};
const firstLoad = { files: new Set([...entry.files, ...app.files]), css: new Set([...entry.css, ...app.css]) };
const providersKey = manifestKey('./providers');

// The tags as the build writes them (Vite adds the nonce placeholder and crossorigin), for the ones added here.
const preloadTag = (file) => `<link rel="modulepreload" crossorigin href="/${file}" nonce="pago-csp-nonce">`;
const styleTag = (file) => `<link rel="stylesheet" crossorigin href="/${file}" nonce="pago-csp-nonce">`;

function page(markup, kind, { files = [], css = [] } = {}) {
  const tags = [...files.map(preloadTag), ...css.map(styleTag)].join('\n    ');
  const head = tags ? template.replace('</head>', `  ${tags}\n  </head>`) : template;
  // Inert until the app has taken it over (src/app/start.tsx): what the member types or taps before then would be
  // lost, since nothing of the app is listening yet.
  return head.replace(ROOT_TAG, `<div id="root" data-shell="${kind}" inert>${markup}</div>`);
}

/** The app's code and what a screen runs on arrival, less what the entry already loads. */
function screenCode(screen) {
  const { files, css } = closure(manifestKey(screen.spec));
  if (screen.serverState) closure(providersKey, files, css);
  return {
    files: [...appCode.files, ...[...files].filter((file) => !firstLoad.files.has(file))],
    css: [...appCode.css, ...[...css].filter((file) => !firstLoad.css.has(file))],
  };
}

const { screens, notFound } = screenModules();
rmSync(join(DIST, SHELLS), { recursive: true, force: true });
mkdirSync(join(DIST, SHELLS));

const home = await renderShell('/', 'home');
// The frame is the same on every screen's page: only the code each page preloads differs.
const frame = await renderShell('/pagoexpress/stepone', 'screen');
if (!frame.includes('role="status"')) fail('the screens\' frame has no loader');

writeFileSync(join(DIST, 'index.html'), page(home, 'home'));
const routes = [];
for (const [id, route] of Object.entries(ROUTES)) {
  if (HOME_ROUTE_IDS.includes(id)) {
    routes.push({ path: route.path, file: 'index.html' });
    continue;
  }
  const screen = screens.get(id);
  if (!screen) fail(`route ${id} has no screen in src/app/screens.tsx`);
  const file = `${SHELLS}/${id}.html`;
  writeFileSync(join(DIST, file), page(frame, 'screen', screenCode(screen)));
  routes.push({ path: route.path, file });
}
const fallback = `${SHELLS}/not-found.html`;
writeFileSync(join(DIST, fallback), page(frame, 'screen', screenCode(notFound)));
writeFileSync(join(DIST, SHELLS, 'routes.json'), `${JSON.stringify({ routes, fallback }, null, 2)}\n`);

if (!existsSync(join(DIST, 'index.html'))) fail('dist/index.html was not written');
rmSync(SSR, { recursive: true, force: true });
console.log(`prerender: the home and ${routes.length - HOME_ROUTE_IDS.length + 1} screens' pages written to dist/`);
