// Starts the whole product from the production build: the API (with the member screens) on :3000, the Webpay
// simulator on its own origin, :3001, and the core banking simulator, :3002. Sandbox mode (NODE_ENV=development,
// SANDBOX=1) is on unless the environment says otherwise.
import concurrently from 'concurrently';
import { tsImport } from 'tsx/esm/api';

// The API refuses to start without NODE_ENV, so that no server runs outside production's rules by omission.
const env = { NODE_ENV: 'development', SANDBOX: '1', ...process.env };
// The sandbox's business day starts at noon in Santiago, so every family is open whatever the hour of whoever tries
// it; POST /sandbox/reloj (or SANDBOX_CLOCK) moves it, e.g. to see the closed hours.
if (env.SANDBOX === '1' && !env.SANDBOX_CLOCK) {
  // The domain's rule, read through tsx (the domain ships TypeScript).
  const { businessNoon } = await tsImport('../packages/domain/src/business-time.ts', import.meta.url);
  env.SANDBOX_CLOCK = businessNoon().toISOString();
}
// The runtime first: npm puts node_modules/.bin/node (decision 040) before the machine's Node for this script and
// the three processes it starts.
const lts = process.release.lts ? ` LTS '${process.release.lts}'` : '';
console.log(`Pago Online on Node ${process.version}${lts}: http://localhost:${env.PORT ?? '3000'}`);
const { result } = concurrently(
  [
    { command: 'node apps/api/dist/server.js', name: 'api', env },
    { command: 'node apps/webpay-sim/dist/server.js', name: 'webpay', env: { ...env, PORT: env.WEBPAY_SIM_PORT ?? '3001' } },
    // The core keeps its books in a file beside PGlite's data, so a restart of `npm start` keeps both in step.
    { command: 'node apps/core-sim/dist/server.js', name: 'core', env: { ...env, PORT: env.CORE_SIM_PORT ?? '3002', CORE_SIM_DATA_FILE: env.CORE_SIM_DATA_FILE ?? 'data/core-sim.json' } },
  ],
  { killOthersOn: ['failure', 'success'], prefix: 'name' },
);
result.then(
  () => process.exit(0),
  () => process.exit(1),
);
