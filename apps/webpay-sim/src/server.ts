import { buildSimulator } from './app';

const port = Number(process.env.WEBPAY_SIM_PORT ?? process.env.PORT ?? 3001);
const host = process.env.HOST ?? '0.0.0.0';
const method = (process.env.WEBPAY_SIM_RETURN_METHOD ?? 'POST').toUpperCase();
if (method !== 'GET' && method !== 'POST') {
  console.error('WEBPAY_SIM_RETURN_METHOD must be GET or POST');
  process.exit(1);
}

const createDelayMs = Number(process.env.WEBPAY_SIM_CREATE_DELAY_MS ?? 0);
if (!Number.isSafeInteger(createDelayMs) || createDelayMs < 0 || createDelayMs > 120_000) {
  console.error('WEBPAY_SIM_CREATE_DELAY_MS must be whole milliseconds from 0 to 120000');
  process.exit(1);
}
const app = buildSimulator({
  publicUrl: process.env.WEBPAY_SIM_PUBLIC_URL ?? `http://localhost:${port}`,
  formTimeoutSeconds: Number(process.env.WEBPAY_SIM_FORM_TIMEOUT_SECONDS ?? 300),
  commitWindowSeconds: Number(process.env.WEBPAY_SIM_COMMIT_WINDOW_SECONDS ?? 1800),
  returnMethod: method,
  createDelayMs,
});
app
  .listen({ host, port })
  .then((address) => console.log(`Webpay simulator listening on ${address}`))
  .catch((error: unknown) => {
    console.error('Webpay simulator failed to start:', error);
    process.exit(1);
  });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
