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

// A slow Webpay is nobody else's wait: twelve members open the card form while Webpay takes 5 s to create each, or
// come back from it while Webpay takes 5 s to commit, and another member's product list is answered meanwhile as on
// a quiet server. Call 10 records its intent and asks Webpay with no transaction open (decision 044), and the return
// holds no connection or row lock while Webpay commits: waits inside transactions would take production's ten
// connections (and PGlite's only one) and the list would wait the 5 s.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
const SLOW_MS = 5_000;
const MEMBERS = 12;

describe.each(DATABASE_KINDS)('a slow Webpay (%s)', (kind) => {
  let t: TestApp & { clock: Clock };
  let sim: FastifyInstance;
  let simUrl: string;
  let target: Target;
  let slow = false;

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store: new SimStore() });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    const real = createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 10_000 });
    const webpay: WebpayClient = {
      ...real,
      create: async (...args) => (slow && (await sleep(SLOW_MS)), real.create(...args)),
      commit: async (token) => (slow && (await sleep(SLOW_MS)), real.commit(token)),
    };
    // Production's pool of ten connections.
    t = await startTestApp(kind, { webpay, poolMax: 10, config: { altchaCounter: { min: 10, max: 50 } } });
    target = injectTarget(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  // Quiet: tens of milliseconds; a list stuck behind Webpay would wait the 5 s.
  /** The product list of a member who has nothing to do with the card payments, and how long it took. */
  async function timedListing(): Promise<number> {
    const started = performance.now();
    const { productos } = await listar(target.forClient!('127.0.7.7'), '11111111-1');
    expect(productos.length).toBeGreaterThan(0);
    return performance.now() - started;
  }

  /** Twelve load members, each with one instalment selected, ready to open the card form. */
  async function selections(firstRut: number, subnet: number) {
    const members = await insertLoadMembers(t.database.db, MEMBERS, businessToday(t.clock()), firstRut);
    const selected = [];
    for (const [i, m] of members.entries()) {
      const client = target.forClient!(`127.0.${subnet}.${i + 1}`);
      const { token, productos } = await listar(client, m.rut);
      const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1)];
      const sel = await seleccionar(client, token, m.rut, producto);
      selected.push({ client, session: { token, rut: m.rut }, selection: { idTransaccion: sel.idTransaccion, producto } });
    }
    return selected;
  }

  it('answers another member’s product list as fast as on a quiet server while twelve card forms wait 5 s for Webpay’s create', async () => {
    const selected = await selections(32_000_000, 4);
    const quiet = Math.max(await timedListing(), await timedListing());

    slow = true;
    const opening = Promise.all(selected.map((s) => startCard(s.client, s.session, s.selection)));
    // Every form is now waiting on Webpay's create.
    await sleep(700);
    const during = [await timedListing(), await timedListing(), await timedListing()];
    const forms = await opening;
    slow = false;

    expect(forms.every((f) => f.webpayToken.length > 0)).toBe(true);
    expect(Math.max(...during), `quiet ${quiet.toFixed(0)} ms, during ${during.map((d) => d.toFixed(0)).join(', ')} ms`).toBeLessThan(Math.max(1_000, 3 * quiet));
  });

  it('leaves another member’s product list as fast as on a quiet server while twelve returns wait for Webpay’s commit', async () => {
    const forms = [];
    for (const s of await selections(31_000_000, 3)) {
      const started = await startCard(s.client, s.session, s.selection);
      forms.push({ client: s.client, fields: await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED }) });
    }
    const quiet = Math.max(await timedListing(), await timedListing());

    slow = true;
    const returning = Promise.all(forms.map((f) => postReturn(f.client, f.fields)));
    // Every return is now waiting on Webpay's commit.
    await sleep(500);
    const during = [await timedListing(), await timedListing(), await timedListing()];
    const estados = await returning;
    slow = false;

    expect(estados).toEqual(Array(MEMBERS).fill('aprobado'));
    expect(Math.max(...during), `quiet ${quiet.toFixed(0)} ms, during ${during.map((d) => d.toFixed(0)).join(', ')} ms`).toBeLessThan(Math.max(1_000, 3 * quiet));
  });
});
