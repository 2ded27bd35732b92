import { businessToday } from '@pago/domain/business-time';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock';
import { createWebpayClient, type WebpayClient } from '../../src/services/webpay-client';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { insertLoadMembers } from './fixtures';
import { listar, oldestOf, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from './flows';
import { injectTarget, type Target } from './http';

// A slow Webpay is nobody else's wait: twelve members come back from the card form while Webpay takes 5 s to commit,
// and another member's product list is answered meanwhile as on a quiet server (no connection or row lock is held
// while Webpay answers). On PGlite, which has one connection, a commit held inside a transaction would stop it all.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const COMMIT_MS = 5_000;
const RETURNS = 12;

describe.each(DATABASE_KINDS)('a slow Webpay commit (%s)', (kind) => {
  let t: TestApp & { clock: Clock };
  let sim: FastifyInstance;
  let simUrl: string;
  let target: Target;
  let slow = false;

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store: new SimStore() });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const real = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 10_000 });
    const webpay: WebpayClient = { ...real, commit: async (token) => (slow && (await sleep(COMMIT_MS)), real.commit(token)) };
    // Production's pool of ten connections: twelve commits held inside transactions would take every one.
    t = await startTestApp(kind, { webpay, poolMax: 10, config: { altchaCounter: { min: 10, max: 50 } } });
    target = injectTarget(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  /** The product list of a member who has nothing to do with the card payments, and how long it took. */
  async function timedListing(): Promise<number> {
    const started = performance.now();
    const { productos } = await listar(target.forClient!('127.0.7.7'), '11111111-1');
    expect(productos.length).toBeGreaterThan(0);
    return performance.now() - started;
  }

  it('leaves another member’s product list as fast as on a quiet server while twelve returns wait for Webpay', async () => {
    const members = await insertLoadMembers(t.database.db, RETURNS, businessToday(t.clock()), 31_000_000);
    const forms = [];
    for (const [i, m] of members.entries()) {
      const client = target.forClient!(`127.0.3.${i + 1}`);
      const { token, productos } = await listar(client, m.rut);
      const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1)];
      const sel = await seleccionar(client, token, m.rut, producto);
      const started = await startCard(client, { token, rut: m.rut }, { idTransaccion: sel.idTransaccion, producto });
      forms.push({ client, fields: await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED }) });
    }
    const quiet = Math.max(await timedListing(), await timedListing());

    slow = true;
    const returning = Promise.all(forms.map((f) => postReturn(f.client, f.fields)));
    // Every return is now waiting on Webpay's commit.
    await sleep(500);
    const during = [await timedListing(), await timedListing(), await timedListing()];
    const estados = await returning;
    slow = false;

    expect(estados).toEqual(Array(RETURNS).fill('aprobado'));
    // Quiet: tens of milliseconds; a list stuck behind the commits would wait the 5 s.
    expect(Math.max(...during), `quiet ${quiet.toFixed(0)} ms, during ${during.map((d) => d.toFixed(0)).join(', ')} ms`).toBeLessThan(Math.max(1_000, 3 * quiet));
  });
});
