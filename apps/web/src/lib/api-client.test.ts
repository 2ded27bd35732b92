import { describe, expect, it } from 'vitest';
import { jsonResponse, sentBody, stubFetch } from '../test/fetch-stub';
import { isApiError, postJson, type ApiError } from './api-client';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('postJson', () => {
  it('POSTs the body as JSON and returns the parsed answer', async () => {
    const fetch = stubFetch(jsonResponse({ respuesta: { ok: true } }));
    await expect(postJson('/prod/algo', { pedido: { a: 1 } })).resolves.toEqual({ respuesta: { ok: true } });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/prod/algo');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(sentBody(fetch)).toEqual({ pedido: { a: 1 } });
  });

  it('passes extra headers', async () => {
    const fetch = stubFetch(jsonResponse({}));
    await postJson('/prod/algo', {}, { headers: { Authorization: 'captcha' } });
    expect(new Headers(fetch.mock.calls[0]?.[1]?.headers).get('Authorization')).toBe('captcha');
  });

  it('a business error inside HTTP 200 is an answer, not a failure', async () => {
    const body = { r: { error: { errores: { detalleError: { codigo: '500', descripcion: 'x' } } } } };
    stubFetch(jsonResponse(body));
    await expect(postJson('/prod/algo', {})).resolves.toEqual(body);
  });

  it('throws a network ApiError when there is no answer', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const error = await failure(postJson('/prod/algo', {}));
    expect(error.kind).toBe('network');
    expect(error.status).toBeNull();
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('throws an http ApiError with the status and the JSON body outside 2xx', async () => {
    stubFetch(jsonResponse({ detalle: 'no' }, 503));
    const error = await failure(postJson('/prod/algo', {}));
    expect(error).toMatchObject({ kind: 'http', status: 503, body: { detalle: 'no' }, path: '/prod/algo' });
  });

  it('throws an http ApiError for a non-JSON error page', async () => {
    stubFetch(new Response('<h1>Bad gateway</h1>', { status: 502 }));
    expect(await failure(postJson('/prod/algo', {}))).toMatchObject({ kind: 'http', status: 502, body: null });
  });

  it('throws a parse ApiError for a 2xx answer that is not JSON', async () => {
    stubFetch(new Response('', { status: 200 }));
    expect(await failure(postJson('/prod/algo', {}))).toMatchObject({ kind: 'parse', status: 200 });
  });
});
