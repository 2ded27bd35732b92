import { businessToday } from '@pago/domain/business-time';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock';
import { createWebpayClient } from '../../src/services/webpay-client';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { insertLoadMembers } from './fixtures';
import { listar, oldestOf, seleccionar, startCard } from './flows';
import { injectTarget, type Target } from './http';

// A slow Webpay create is nobody else's wait: twelve members open the card form at once while Webpay takes 5 s to
// create each, and another member's product list is answered meanwhile as on a quiet server. Call 10 records its
// intent, asks Webpay with no transaction open, and records the outcome (decision 044); with the create inside the
// transaction, twelve waits take production's ten connections and the list waits the 5 s.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const CREATE_MS = 5_000;
const FORMS = 12;

describe.each(DATABASE_KINDS)('a slow Webpay create (%s)', (kind) => {
  let t: TestApp & { clock: Clock };
  let sim: FastifyInstance;
  let target: Target;

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store: new SimStore(), createDelayMs: CREATE_MS });
    const simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const webpay = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 10_000 });
    // Production's pool of ten connections.
    t = await startTestApp(kind, { webpay, poolMax: 10, config: { altchaCounter: { min: 10, max: 50 } } });
    target = injectTarget(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  /** The product list of a member who has nothing to do with the card forms, and how long it took. */
  async function timedListing(): Promise<number> {
    const started = performance.now();
    const { productos } = await listar(target.forClient!('127.0.7.7'), '11111111-1');
    expect(productos.length).toBeGreaterThan(0);
    return performance.now() - started;
  }

  it('answers another member’s product list within 500 ms while twelve card forms wait 5 s for Webpay’s create', async () => {
    const members = await insertLoadMembers(t.database.db, FORMS, businessToday(t.clock()), 32_000_000);
    const selections = [];
    for (const [i, m] of members.entries()) {
      const client = target.forClient!(`127.0.4.${i + 1}`);
      const { token, productos } = await listar(client, m.rut);
      const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1)];
      const sel = await seleccionar(client, token, m.rut, producto);
      selections.push({ client, session: { token, rut: m.rut }, selection: { idTransaccion: sel.idTransaccion, producto } });
    }
    const quiet = Math.max(await timedListing(), await timedListing());

    const opening = Promise.all(selections.map((s) => startCard(s.client, s.session, s.selection)));
    // Every form is now waiting on Webpay's create.
    await sleep(700);
    const during = [await timedListing(), await timedListing(), await timedListing()];
    const forms = await opening;

    expect(forms.every((f) => f.webpayToken.length > 0)).toBe(true);
    expect(Math.max(...during), `quiet ${quiet.toFixed(0)} ms, during ${during.map((d) => d.toFixed(0)).join(', ')} ms`).toBeLessThan(500);
  });
});
