import { buildSimulator } from './app';

const port = Number(process.env.WEBPAY_SIM_PORT ?? process.env.PORT ?? 3001);
const host = process.env.HOST ?? '0.0.0.0';

const app = buildSimulator();
app
  .listen({ host, port })
  .then((address) => console.log(`Webpay simulator listening on ${address}`))
  .catch((error: unknown) => {
    console.error('Webpay simulator failed to start:', error);
    process.exit(1);
  });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
