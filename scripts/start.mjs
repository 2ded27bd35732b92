// Starts the whole product from the production build: the API (with the member screens) on :3000, the Webpay
// simulator on its own origin, :3001, and the core banking simulator, :3002. Sandbox mode is on unless the
// environment says otherwise.
import concurrently from 'concurrently';

const env = { SANDBOX: '1', ...process.env };
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
