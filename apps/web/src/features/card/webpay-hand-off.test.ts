import { describe, expect, it, vi } from 'vitest';
import type { CardProviderTokens } from '../../lib/app-store';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { handOffOnce, handOffToWebpay, type HandOffInput } from './webpay-hand-off';

const ID = '0123456789abcdef0123456789abcdef';
const WEBPAY_TOKEN = 'e'.repeat(64);
const INPUT: HandOffInput = {
  family: 'PM',
  idTrx: ID,
  session: { rut: '11111111-1', token: 'sesion-123' },
  productsToPay: [{ productNumber: '630055667788', installment: ['9|156300|20300605|A|0'] }],
  parameters: { pagoDebitoCreditoPM: '1', pagoWPDebitoCredito: '597055555536', pagoWPDebito: '597055555537' },
};
const authOk = () => jsonResponse({ code: 0, token: 'host-token' });
const initOk = (url = 'https://webpay3gint.transbank.cl/webpayserver/initTransaction') =>
  jsonResponse({ token: WEBPAY_TOKEN, url });
const refused = (code: number | string, descripcion = 'Descripción del servidor.') => jsonResponse({ code, descripcion });

describe('handing the payment over to Webpay (calls 9 and 10)', () => {
  it('calls auth with the session, then initMall with its token and one store per product, and keeps the tokens', async () => {
    const fetch = stubFetch(authOk(), initOk());
    const save = vi.fn<(tokens: CardProviderTokens) => void>();
    const result = await handOffToWebpay(INPUT, save);

    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/pagoexpress/auth', '/api/pagoexpress/initMall']);
    const headers = (call: number) => fetch.mock.calls[call]![1]!.headers as Record<string, string>;
    expect(headers(0)['Authorization']).toBe('Bearer sesion-123');
    expect(sentBody(fetch, 0)).toEqual({ idTransaction: ID });
    expect(headers(1)['Authorization']).toBe('Bearer host-token');
    expect(sentBody(fetch, 1)).toEqual({
      sessionId: 'sesion-12311111111-1',
      transactionId: ID,
      storesTransaction: [{ amount: 156_300, commerceCode: '597055555536', transactionId: '630055667788' }],
    });
    expect(save).toHaveBeenCalledWith({
      idTrx: ID,
      tokenJWT: 'host-token',
      tokenWP: WEBPAY_TOKEN,
      urlInit: 'https://webpay3gint.transbank.cl/webpayserver/initTransaction',
    });
    expect(result).toEqual({
      kind: 'ready',
      url: 'https://webpay3gint.transbank.cl/webpayserver/initTransaction',
      token: WEBPAY_TOKEN,
    });
  });

  // Specification §8 'Product selection', card path: these codes show their description, the rest the error page.
  const SHOWN = ['415', '47678', '49010', '4953', '41027', '461', '463', '505'];
  const NOT_SHOWN = ['476', '515', '442', '502', '503', '514', '400', '999', '12345'];

  it.each(SHOWN)('shows the description of a refusal %s on customError (auth and initMall alike)', async (code) => {
    stubFetch(refused(Number(code)));
    expect(await handOffToWebpay(INPUT, vi.fn())).toEqual({
      kind: 'outcome',
      outcome: { kind: 'customError', message: 'Descripción del servidor.' },
    });
    stubFetch(authOk(), refused(code));
    expect(await handOffToWebpay(INPUT, vi.fn())).toEqual({
      kind: 'outcome',
      outcome: { kind: 'customError', message: 'Descripción del servidor.' },
    });
  });

  it.each(NOT_SHOWN)('sends a refusal %s to the error page', async (code) => {
    stubFetch(refused(Number(code)));
    expect(await handOffToWebpay(INPUT, vi.fn())).toEqual({
      kind: 'outcome',
      outcome: { kind: 'navigate', to: '/pagoexpress/error' },
    });
    stubFetch(authOk(), refused(Number(code)));
    expect(await handOffToWebpay(INPUT, vi.fn())).toEqual({
      kind: 'outcome',
      outcome: { kind: 'navigate', to: '/pagoexpress/error' },
    });
  });

  it.each<[string, () => ReturnType<typeof stubFetch>]>([
    ['a network failure on auth', () => stubFetch(new TypeError('Failed to fetch'))],
    ['a network failure on initMall', () => stubFetch(authOk(), new TypeError('Failed to fetch'))],
    ['an HTTP 500', () => stubFetch(jsonResponse({ authResponse: {} }, 500))],
    ['an HTTP 400 with its envelope', () => stubFetch(jsonResponse({ authResponse: { error: {} } }, 400))],
    ['a body that is not JSON', () => stubFetch(new Response('<html>', { status: 200 }))],
    ['auth code 0 without a token', () => stubFetch(jsonResponse({ code: 0 }))],
    ['an answer without a code', () => stubFetch(jsonResponse({ ok: true }))],
    ['initMall without a URL', () => stubFetch(authOk(), jsonResponse({ token: WEBPAY_TOKEN }))],
    ['a script URL', () => stubFetch(authOk(), initOk('javascript:alert(1)'))],
    ['a relative URL', () => stubFetch(authOk(), initOk('/webpayserver/initTransaction'))],
  ])('goes to the error page on %s, keeping no token', async (_label, stub) => {
    stub();
    const save = vi.fn();
    expect(await handOffToWebpay(INPUT, save)).toEqual({
      kind: 'outcome',
      outcome: { kind: 'navigate', to: '/pagoexpress/error' },
    });
    expect(save).not.toHaveBeenCalled();
  });

  it('calls nothing when the selection gives no store to send', async () => {
    const fetch = stubFetch();
    const result = await handOffToWebpay({ ...INPUT, parameters: {} }, vi.fn());
    expect(result).toEqual({ kind: 'outcome', outcome: { kind: 'navigate', to: '/pagoexpress/error' } });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('calls auth once for a transaction however many times it is asked while under way', async () => {
    const fetch = stubFetch(authOk(), initOk());
    const save = vi.fn();
    const [a, b, c] = await Promise.all([handOffOnce(INPUT, save), handOffOnce(INPUT, save), handOffOnce(INPUT, save)]);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(save).toHaveBeenCalledTimes(1);
    expect(b).toBe(a);
    expect(c).toBe(a);
  });
});
