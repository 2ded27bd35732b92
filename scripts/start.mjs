// Starts the whole product from the production build: the API (with the member screens) on :3000 and the
// Webpay simulator on its own origin, :3001. Sandbox mode is on unless the environment says otherwise.
import concurrently from 'concurrently';

const env = { SANDBOX: '1', ...process.env };
const { result } = concurrently(
  [
    { command: 'node apps/api/dist/server.js', name: 'api', env },
    { command: 'node apps/webpay-sim/dist/server.js', name: 'webpay', env: { ...env, PORT: env.WEBPAY_SIM_PORT ?? '3001' } },
  ],
  { killOthersOn: ['failure', 'success'], prefix: 'name' },
);
result.then(
  () => process.exit(0),
  () => process.exit(1),
);
