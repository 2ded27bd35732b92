import { businessToday } from '@pago/domain/business-time';
import { afterEach, describe, expect, it } from 'vitest';
import { businessNoon, DATABASE_KINDS, startCoreSim, startTestApp, type CoreSimHandle } from '../../test/support/test-app';
import { createFineractClient } from './fineract-client';

describe.each(DATABASE_KINDS)('the core’s payment types checked by /ready on %s', (kind) => {
  let sim: CoreSimHandle | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await sim?.close();
  });

  async function appWith(webpayPaymentTypeId: number, transferPaymentTypeId: number) {
    sim = await startCoreSim(businessToday(businessNoon()));
    const core = createFineractClient({ baseUrl: `${sim.origin}/fineract-provider/api`, username: 'mifos', password: 'password', tenant: 'default', timeoutMs: 3_000, webpayPaymentTypeId, transferPaymentTypeId });
    const t = await startTestApp(kind, { coreSim: sim, core });
    close = () => t.close();
    return t;
  }

  /** /ready once the boot's look at GET /paymenttypes has answered. */
  async function readyAfterTheLook(t: Awaited<ReturnType<typeof appWith>>) {
    for (let i = 0; i < 50; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      if (res.statusCode !== 200 || i > 20) return res;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('unreachable');
  }

  it('answers 503 naming the setting whose payment type the core does not have', async () => {
    const t = await appWith(999, 2);
    const res = await readyAfterTheLook(t);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'core payment type missing', rateLimits: 'process', missing: ['CORE_WEBPAY_PAYMENT_TYPE_ID=999'] });
  });

  it('is ready when the core has both payment types', async () => {
    const t = await appWith(1, 2);
    const res = await readyAfterTheLook(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', rateLimits: 'process' });
  });

  it('stays ready while the core does not answer: the payments wait in the outbox, the look is made again', async () => {
    sim = await startCoreSim(businessToday(businessNoon()));
    const origin = sim.origin;
    await sim.close();
    sim = undefined;
    const core = createFineractClient({ baseUrl: `${origin}/fineract-provider/api`, username: 'mifos', password: 'password', tenant: 'default', timeoutMs: 1_000, webpayPaymentTypeId: 999, transferPaymentTypeId: 2 });
    const t = await startTestApp(kind, { core });
    close = () => t.close();
    expect((await readyAfterTheLook(t)).statusCode).toBe(200);
  });
});
