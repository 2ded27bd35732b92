import type { DemoMember } from '@pago/domain/demo-members';
import { readFileSync } from 'node:fs';
import { buildCoreSim } from './app';

if (process.env.NODE_ENV === 'production') {
  console.error('The core banking simulator refuses to run with NODE_ENV=production: it is a test double holding demo money.');
  process.exit(1);
}

const port = Number(process.env.CORE_SIM_PORT ?? process.env.PORT ?? 3002);
const host = process.env.HOST ?? '0.0.0.0';

// Members besides the demo members (the benchmark's), as a JSON list in the demo members' shape.
const members = process.env.CORE_SIM_MEMBERS_FILE ? (JSON.parse(readFileSync(process.env.CORE_SIM_MEMBERS_FILE, 'utf8')) as DemoMember[]) : undefined;

// The core's payment types, `id:name` comma-separated (e.g. `1:Webpay,2:Transferencia`); the defaults otherwise.
const paymentTypes = process.env.CORE_SIM_PAYMENT_TYPES?.split(',').map((entry) => {
  const [id, ...name] = entry.split(':');
  return { id: Number(id), name: name.join(':') || `Tipo ${id}` };
});

// Fineract's working days and holidays, with repayments not allowed on the others: `1,2,3,4,5` and `yyyymmdd,…`.
const list = (value: string | undefined) => value?.split(',').map((v) => v.trim()).filter((v) => v !== '');
const weekdays = list(process.env.CORE_SIM_WORKING_WEEKDAYS);
const holidays = list(process.env.CORE_SIM_HOLIDAYS);
const calendar = weekdays || holidays ? { workingWeekdays: (weekdays ?? ['1', '2', '3', '4', '5', '6', '7']).map(Number), holidays: holidays ?? [] } : undefined;

const app = buildCoreSim({
  ...(paymentTypes ? { paymentTypes } : {}),
  ...(calendar ? { calendar } : {}),
  ...(process.env.CORE_SIM_DATA_FILE ? { dataFile: process.env.CORE_SIM_DATA_FILE } : {}),
  ...(process.env.CORE_SIM_TODAY ? { today: process.env.CORE_SIM_TODAY } : {}),
  ...(members ? { members } : {}),
});
app
  .listen({ host, port })
  .then((address) => console.log(`Core banking simulator (Fineract) listening on ${address}`))
  .catch((error: unknown) => {
    console.error('Core banking simulator failed to start:', error);
    process.exit(1);
  });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
