import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { createWebpayClient, type WebpayClient } from '../../src/services/webpay-client';

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

export interface TestWebpay {
  store: SimStore;
  url: string;
  refundsSent: number;
  direct(): WebpayClient;
  faults: { refundsDown: boolean; refuseRefunds: boolean; statusDown: boolean };
  client: WebpayClient;
}

/**
 * Webpay as the API sees it in a test: a simulator of its own for each test (its books in `store`), behind switches
 * that make refunds unanswered or refused and status unanswered, with a count of the refunds that reached it.
 */
export function webpaySimPerTest(): TestWebpay {
  let sim: FastifyInstance | undefined;
  let real: WebpayClient | undefined;
  const webpay: TestWebpay = {
    store: new SimStore(),
    url: '',
    refundsSent: 0,
    /** The simulator's client with no switch or count: Webpay's own answer, as another channel would get it. */
    direct: () => real!,
    faults: { refundsDown: false, refuseRefunds: false, statusDown: false },
    client: {
      create: (...args) => real!.create(...args),
      commit: (token) => real!.commit(token),
      status: async (token) => (webpay.faults.statusDown ? { ok: false, kind: 'unavailable', message: 'no answer' } : real!.status(token)),
      async refund(...args) {
        if (webpay.faults.refundsDown) return { ok: false, kind: 'unavailable', message: 'no answer' };
        if (webpay.faults.refuseRefunds) return { ok: false, kind: 'refused', status: 422, message: 'Refund period exceeded (90 days)' };
        webpay.refundsSent++;
        return real!.refund(...args);
      },
    },
  };
  beforeEach(async () => {
    webpay.store = new SimStore();
    sim = buildSimulator({ publicUrl: 'http://sim.test', store: webpay.store });
    webpay.url = await sim.listen({ host: '127.0.0.1', port: 0 });
    real = createWebpayClient({ baseUrl: webpay.url, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 });
    webpay.faults = { refundsDown: false, refuseRefunds: false, statusDown: false };
    webpay.refundsSent = 0;
  });
  afterEach(async () => {
    await sim?.close();
  });
  return webpay;
}
