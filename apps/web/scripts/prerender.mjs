#!/usr/bin/env node
// The last step of the web build (decision 037): writes the HTML every page arrives with, drawn at build time by
// src/prerender/entry.tsx (built with `vite build --ssr` into dist-prerender/).
//
// - dist/index.html: the home, in full (the home's routes). It names only the entry, which imports the app after the
//   first paint (src/main.tsx).
// - dist/shells/<route id>.html: the site's frame around the screen's arrival (src/app/arrivals.tsx: its heading and
//   the words that do not depend on the session) or the loader. A route whose arrival depends on its family or on
//   Webpay's estado gets a page for each value that draws otherwise (<route id>-<value>.html; -all when every value
//   draws alike). #root lists (data-code) the code the screen runs
//   on arrival besides the app; the entry fetches it after the first paint, beside the app.
// A screen's #root arrives inert; the app lifts it once it has taken the page over (src/app/start.tsx). The home's
// does not: its field takes typing from the first paint, and the app reads what was typed when it takes over.
// - dist/shells/routes.json: which file answers which path, the most specific first, in the route table's order (the
//   API reads it). An entry's query names every key the address's query must have, once each, with the pattern its
//   value must match in full.

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
const { renderShell, ROUTES, HOME_ROUTE_IDS, FAMILIES, RETURN_ESTADOS, ID_TRANSACCION } = await import(
  pathToFileURL(join(SSR, 'entry.js')).href
);

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
// The entry imports the app itself once the page has painted (src/main.tsx), with Vite's preload of the app's own
// imports. Nothing is preloaded by the page: Lighthouse's simulation counts a script that finished downloading before
// the first paint as holding it back, and the page's first paint needs the HTML and the stylesheet only.
const entry = closure(entryKey);
const app = { files: new Set(), css: new Set() };
for (const key of manifest[entryKey].dynamicImports ?? []) closure(key, app.files, app.css);
if (app.files.size === 0) fail('the entry imports no app after the first paint (src/main.tsx)');
const firstLoad = { files: new Set([...entry.files, ...app.files]), css: new Set([...entry.css, ...app.css]) };
const providersKey = manifestKey('./providers');
const arrivalsKey = manifestKey('./arrivals');

// The tag as the build writes it (Vite adds the nonce placeholder and crossorigin), for the ones added here.
const styleTag = (file) => `<link rel="stylesheet" crossorigin href="/${file}" nonce="pago-csp-nonce">`;

function page(markup, kind, { files = [], css = [] } = {}) {
  const head = css.length > 0 ? template.replace('</head>', `  ${css.map(styleTag).join('\n    ')}\n  </head>`) : template;
  const code = files.length > 0 ? ` data-code="${files.join(' ')}"` : '';
  // A screen's frame is inert until the app has taken it over (src/app/start.tsx): a tap before then would be lost.
  // The home is not: what is typed in its field before then is read by the app (features/home/home-page.tsx).
  const inert = kind === 'home' ? '' : ' inert';
  return head.replace(ROOT_TAG, `<div id="root" data-shell="${kind}"${code}${inert}>${markup}</div>`);
}

/** What a screen runs on arrival besides the app: its code and the screens' arrivals, and the app's stylesheets. */
function screenCode(screen) {
  const { files, css } = closure(manifestKey(screen.spec));
  if (screen.serverState) closure(providersKey, files, css);
  closure(arrivalsKey, files, css);
  return {
    files: [...files].filter((file) => !firstLoad.files.has(file)),
    css: [...app.css, ...css].filter((file, index, all) => !entry.css.has(file) && all.indexOf(file) === index),
  };
}

const SAMPLE_PARAM = '0'.repeat(32);
/**
 * The pages a route is drawn as: its own, then one for each family or each Webpay estado whose arrival differs from
 * it. `path` and `query` are what routes.json matches; `url` is what is drawn.
 */
function variantsOf(id, path) {
  const sample = path.replace(/:\w+/g, SAMPLE_PARAM);
  const own = { suffix: null, path, url: sample };
  if (path.includes(':category')) {
    return [own, ...FAMILIES.map((family) => ({ suffix: family, path: path.replace(':category', family), url: sample.replace(SAMPLE_PARAM, family) }))];
  }
  if (id === 'webpayResult') {
    // Matched as the return page reads its query (parseWebpayReturn): these two keys, once each, nothing else.
    const idTransaccion = ID_TRANSACCION.source.replace(/^\^|\$$/g, '');
    return [
      own,
      ...RETURN_ESTADOS.map((estado) => ({ suffix: estado, path, query: { estado, idTransaccion }, url: `${path}?estado=${estado}&idTransaccion=${SAMPLE_PARAM}` })),
    ];
  }
  return [own];
}

const { screens, notFound } = screenModules();
rmSync(join(DIST, SHELLS), { recursive: true, force: true });
mkdirSync(join(DIST, SHELLS));

const home = await renderShell('/', 'home');
// An address no route has: the frame around the loader, with no arrival.
const notFoundMarkup = await renderShell('/pagoexpress/nada', 'screen');
if (!notFoundMarkup.includes('role="status"')) fail("the screens' frame has no loader");

writeFileSync(join(DIST, 'index.html'), page(home, 'home'));
const routes = [];
let pages = 1;
for (const [id, route] of Object.entries(ROUTES)) {
  if (HOME_ROUTE_IDS.includes(id)) {
    routes.push({ path: route.path, file: 'index.html' });
    continue;
  }
  const screen = screens.get(id);
  if (!screen) fail(`route ${id} has no screen in src/app/screens.tsx`);
  const code = screenCode(screen);
  const [own, ...others] = variantsOf(id, route.path);
  const ownMarkup = await renderShell(own.url, 'screen');
  // The variants drawn unlike the route's own page, grouped by what they draw: one page for each group.
  const groups = new Map();
  for (const variant of others) {
    const markup = await renderShell(variant.url, 'screen');
    if (markup !== ownMarkup) groups.set(markup, [...(groups.get(markup) ?? []), variant]);
  }
  for (const [markup, members] of groups) {
    const suffix = members.length === others.length ? 'all' : members.map((variant) => variant.suffix).join('-');
    const file = `${SHELLS}/${id}-${suffix}.html`;
    writeFileSync(join(DIST, file), page(markup, 'screen', code));
    for (const variant of members) routes.push({ path: variant.path, ...(variant.query ? { query: variant.query } : {}), file });
    pages += 1;
  }
  const file = `${SHELLS}/${id}.html`;
  writeFileSync(join(DIST, file), page(ownMarkup, 'screen', code));
  routes.push({ path: route.path, file });
  pages += 1;
}
const fallback = `${SHELLS}/not-found.html`;
writeFileSync(join(DIST, fallback), page(notFoundMarkup, 'screen', screenCode(notFound)));
writeFileSync(join(DIST, SHELLS, 'routes.json'), `${JSON.stringify({ routes, fallback }, null, 2)}\n`);

if (!existsSync(join(DIST, 'index.html'))) fail('dist/index.html was not written');
rmSync(SSR, { recursive: true, force: true });
console.log(`prerender: the home and ${pages} screens' pages written to dist/`);
