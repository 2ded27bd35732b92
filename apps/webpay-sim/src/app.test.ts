import * as transbankModule from 'transbank-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSimulator, INTEGRATION_API_KEY, INTEGRATION_MALL_CODE } from './app';

// transbank-sdk ships CommonJS: under Node's ESM loader its exports sit on `default`.
const tb = ((transbankModule as unknown as { default?: typeof transbankModule }).default ?? transbankModule) as typeof transbankModule;

describe('Webpay Plus Mall simulator, driven by the real transbank-sdk', () => {
  const app = buildSimulator({ publicUrl: 'http://sim.test', formTimeoutSeconds: 300 });
  let base = '';
  const mall = () => new tb.WebpayPlus.MallTransaction(new tb.Options(INTEGRATION_MALL_CODE, INTEGRATION_API_KEY, base, 5_000));
  const details = (a = 10_000, b = 2_500) => [
    new tb.TransactionDetail(a, '597055555536', 'child-a'),
    new tb.TransactionDetail(b, '597055555537', 'child-b'),
  ];
  let n = 0;
  const create = (returnUrl = 'http://merchant.test/return') => mall().create(`order-${++n}`, 'session-1', returnUrl, details());
  const formPost = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

  beforeAll(async () => {
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers its health route', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok', service: 'webpay-sim' });
    // The browser's own request for an icon is not an error in the member's console.
    expect((await app.inject({ method: 'GET', url: '/favicon.ico' })).statusCode).toBe(204);
  });

  it('creates a transaction and hands out the form URL', async () => {
    const created = await create();
    expect(created.token).toMatch(/^[0-9a-f]{64}$/);
    expect(created.url).toBe('http://sim.test/webpayserver/initTransaction');
    const form = await formPost('/webpayserver/initTransaction', { token_ws: created.token });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('$12.500');
  });

  it('refuses wrong credentials with 401 like Transbank', async () => {
    const bad = new tb.WebpayPlus.MallTransaction(new tb.Options(INTEGRATION_MALL_CODE, 'not-the-key', base, 5_000));
    await expect(bad.create('x-1', 's', 'http://m.test/r', details())).rejects.toThrow(/401[\s\S]*Not Authorized/);
  });

  it('validates fields: unknown store, repeated child order, repeated buy order, too long', async () => {
    await expect(mall().create('o-bad-store', 's', 'http://m.test/r', [new tb.TransactionDetail(1000, '597055555599', 'c1')])).rejects.toThrow(/commerce_code/);
    await expect(
      mall().create('o-dup-child', 's', 'http://m.test/r', [new tb.TransactionDetail(1000, '597055555536', 'c1'), new tb.TransactionDetail(1000, '597055555537', 'c1')]),
    ).rejects.toThrow(/buy_order/);
    await mall().create('o-unique', 's', 'http://m.test/r', details());
    await expect(mall().create('o-unique', 's', 'http://m.test/r', details())).rejects.toThrow(/already exists/);
    const raw = await fetch(`${base}/rswebpaytransaction/api/webpay/v1.2/transactions`, {
      method: 'POST',
      headers: { 'Tbk-Api-Key-Id': INTEGRATION_MALL_CODE, 'Tbk-Api-Key-Secret': INTEGRATION_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ buy_order: 'x'.repeat(27), session_id: 's', return_url: 'http://m.test/r', details: [] }),
    });
    expect(raw.status).toBe(422);
    expect(await raw.json()).toEqual({ error_message: 'Invalid value for parameter: buy_order' });
  });

  it('approves the VISA test card, commits once, and reports the status', async () => {
    const { token } = await create();
    await expect(mall().commit(token)).rejects.toThrow(/Invalid status '0'/);
    const back = await formPost('/webpayserver/pay', { token, card: '4051 8856 0044 6623', expiry: '12/29', cvv: '123' });
    expect(back.body).toContain(`name="token_ws" value="${token}"`);
    expect(back.body).toContain('action="http://merchant.test/return"');
    const committed = await mall().commit(token);
    expect(committed.details.map((d: { status: string; response_code: number }) => [d.status, d.response_code])).toEqual([
      ['AUTHORIZED', 0],
      ['AUTHORIZED', 0],
    ]);
    expect(committed.card_detail.card_number).toBe('6623');
    await expect(mall().commit(token)).rejects.toThrow(/already committed/);
    expect((await mall().status(token)).details[0].status).toBe('AUTHORIZED');
  });

  it('rejects the Mastercard test card', async () => {
    const { token } = await create();
    await formPost('/webpayserver/pay', { token, card: '5186059559590568', expiry: '12/29', cvv: '123' });
    const committed = await mall().commit(token);
    expect(committed.details.every((d: { status: string; response_code: number }) => d.status === 'FAILED' && d.response_code === -1)).toBe(true);
  });

  it('returns TBK_TOKEN, TBK_ORDEN_COMPRA and TBK_ID_SESION on Anular, and refuses a commit then', async () => {
    const { token } = await create();
    const back = await formPost('/webpayserver/abort', { token });
    expect(back.body).toContain(`name="TBK_TOKEN" value="${token}"`);
    expect(back.body).toContain('name="TBK_ORDEN_COMPRA"');
    expect(back.body).toContain('name="TBK_ID_SESION" value="session-1"');
    await expect(mall().commit(token)).rejects.toThrow(/Invalid status '10'/);
  });

  it('times an unattended form out with TBK_ORDEN_COMPRA and TBK_ID_SESION, by GET when so configured', async () => {
    const quick = buildSimulator({ publicUrl: 'http://sim.test', formTimeoutSeconds: 0, returnMethod: 'GET' });
    const quickBase = await quick.listen({ host: '127.0.0.1', port: 0 });
    try {
      const m = new tb.WebpayPlus.MallTransaction(new tb.Options(INTEGRATION_MALL_CODE, INTEGRATION_API_KEY, quickBase, 5_000));
      const { token } = await m.create('t-1', 'sess-9', 'http://merchant.test/return', details());
      await new Promise((r) => setTimeout(r, 20));
      const back = await quick.inject({ method: 'GET', url: `/webpayserver/timeout?token=${token}` });
      expect(back.statusCode).toBe(303);
      const location = new URL(back.headers.location as string);
      expect(Object.fromEntries(location.searchParams)).toEqual({ TBK_ORDEN_COMPRA: 't-1', TBK_ID_SESION: 'sess-9' });
      await expect(m.commit(token)).rejects.toThrow(/aborted/);
      expect((await m.status(token)).details[0].status).toBe('FAILED');
    } finally {
      await quick.close();
    }
  });

  it('refunds a committed store in full as a reversal', async () => {
    const { token } = await create();
    await formPost('/webpayserver/pay', { token, card: '4051884239937763', expiry: '01/30', cvv: '123' });
    await mall().commit(token);
    expect(await mall().refund(token, 'child-a', '597055555536', 10_000)).toEqual({ type: 'REVERSED' });
  });
});

// Transbank's own Node example for Webpay Plus Mall (TransbankDevelopers/transbank-sdk-nodejs-webpay-rest-example,
// controllers/webpay_plus_mall.js), its calls made as it makes them: the SDK's integration credentials, two stores of
// the same child commerce code, and the refund's amount as the string its HTML form posts. Only the base URL differs.
describe("Transbank's Webpay Plus Mall example, against the simulator", () => {
  const app = buildSimulator({ publicUrl: 'http://sim.test' });
  let base = '';
  const mall = () =>
    new tb.WebpayPlus.MallTransaction(new tb.Options(tb.IntegrationCommerceCodes.WEBPAY_PLUS_MALL, tb.IntegrationApiKeys.WEBPAY, base));
  const child = tb.IntegrationCommerceCodes.WEBPAY_PLUS_MALL_CHILD1;
  // What its form posts: text, whatever the field holds.
  const formAmount = (amount: string) => amount as unknown as number;
  let n = 0;

  async function paidTransaction(first: number, second: number) {
    n += 1;
    const details = [new tb.TransactionDetail(first, child, `O-${n}1`), new tb.TransactionDetail(second, child, `O-${n}2`)];
    const { token, url } = await mall().create(`O-${n}`, `S-${n}`, 'http://merchant.test/webpay_plus_mall/commit', details);
    expect(url).toBe('http://sim.test/webpayserver/initTransaction');
    const pay = await app.inject({
      method: 'POST',
      url: '/webpayserver/pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, card: '4051 8856 0044 6623', expiry: '12/29', cvv: '123' }).toString(),
    });
    expect(pay.body).toContain(`name="token_ws" value="${token}"`);
    return { token, orders: [`O-${n}1`, `O-${n}2`] as const };
  }

  const refundRaw = (token: string, body: Record<string, unknown>) =>
    fetch(`${base}/rswebpaytransaction/api/webpay/v1.2/transactions/${token}/refunds`, {
      method: 'POST',
      headers: { 'Tbk-Api-Key-Id': INTEGRATION_MALL_CODE, 'Tbk-Api-Key-Secret': INTEGRATION_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('creates, commits, reads the status and refunds one store in full with the amount as a string', async () => {
    const { token, orders } = await paidTransaction(150, 180);
    const committed = await mall().commit(token);
    expect(committed.details.map((d: { buy_order: string; status: string; amount: number }) => [d.buy_order, d.status, d.amount])).toEqual([
      [orders[0], 'AUTHORIZED', 150],
      [orders[1], 'AUTHORIZED', 180],
    ]);
    expect((await mall().status(token)).buy_order).toBe(committed.buy_order);
    expect(await mall().refund(token, orders[0], child, formAmount('150'))).toEqual({ type: 'REVERSED' });
    expect((await mall().status(token)).details.map((d: { status: string }) => d.status)).toEqual(['REVERSED', 'AUTHORIZED']);
  });

  it('refunds part of a store, adds the parts up, and refuses a refund past what is left as Transbank does', async () => {
    const { token, orders } = await paidTransaction(150, 180);
    await mall().commit(token);
    const partial = await mall().refund(token, orders[1], child, formAmount('100'));
    expect(partial).toMatchObject({ type: 'NULLIFIED', nullified_amount: 100, balance: 80, response_code: 0 });

    await expect(mall().refund(token, orders[1], child, formAmount('81'))).rejects.toThrow(/Amount to refund is bigger than authorized/);
    const refused = await refundRaw(token, { buy_order: orders[1], commerce_code: child, amount: '181' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error_message: 'Amount to refund is bigger than authorized' });
    for (const amount of ['x', '1.5', '0', null]) {
      const notAnAmount = await refundRaw(token, { buy_order: orders[1], commerce_code: child, amount });
      expect(notAnAmount.status, String(amount)).toBe(422);
      expect(await notAnAmount.json()).toEqual({ error_message: 'Invalid value for parameter: amount' });
    }

    expect(await mall().refund(token, orders[1], child, formAmount('80'))).toMatchObject({ type: 'NULLIFIED', nullified_amount: 80, balance: 0 });
    expect((await mall().status(token)).details[1]).toMatchObject({ status: 'NULLIFIED', balance: 0 });
    await expect(mall().refund(token, orders[1], child, formAmount('1'))).rejects.toThrow(/already fully refunded/);
  });

  it('reads numbers sent as numeric strings on create as Transbank does, and refuses what is not a number', async () => {
    const create = (detail: Record<string, unknown>) =>
      fetch(`${base}/rswebpaytransaction/api/webpay/v1.2/transactions`, {
        method: 'POST',
        headers: { 'Tbk-Api-Key-Id': INTEGRATION_MALL_CODE, 'Tbk-Api-Key-Secret': INTEGRATION_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ buy_order: `N-${++n}`, session_id: 'S-1', return_url: 'http://merchant.test/r', details: [detail] }),
      });
    const order = `C-${n + 1}`;
    const created = await create({ amount: '1500', commerce_code: Number(child), buy_order: order, installments_number: '0' });
    expect(created.status).toBe(200);
    const { token } = (await created.json()) as { token: string };
    expect((await mall().status(token)).details[0]).toMatchObject({ amount: 1500, commerce_code: child });

    for (const amount of ['15.5', '-1', 'mil', '', null]) {
      const refused = await create({ amount, commerce_code: child, buy_order: `C-${n}` });
      expect(refused.status, String(amount)).toBe(422);
      expect(await refused.json()).toEqual({ error_message: 'Invalid value for parameter: amount' });
    }
  });

  it('answers a call it does not implement (deferred capture) in Transbank’s error shape', async () => {
    const { token, orders } = await paidTransaction(150, 180);
    await mall().commit(token);
    await expect(mall().capture(child, token, orders[0], '123456', 150)).rejects.toThrow(/Not implemented by the simulator/);
  });
});
