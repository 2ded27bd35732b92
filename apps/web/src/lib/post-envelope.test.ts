import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '../test/fetch-stub';
import { isApiError } from './api-client';
import { postEnvelope } from './post-envelope';

const envelope = (codigo: string, descripcion: string) => ({
  llamadaResponse: { error: { errores: { detalleError: { codigo, descripcion } } } },
});

async function failure(promise: Promise<unknown>) {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('postEnvelope', () => {
  it('answers the response object keyed by the response name', async () => {
    stubFetch(jsonResponse({ llamadaResponse: { token: 't' } }));
    await expect(postEnvelope('/prod/llamada', {}, 'llamadaResponse')).resolves.toEqual({
      kind: 'response',
      response: { token: 't' },
    });
  });

  it('answers the business error inside it', async () => {
    stubFetch(jsonResponse(envelope('461', 'Orden')));
    await expect(postEnvelope('/prod/llamada', {}, 'llamadaResponse')).resolves.toEqual({
      kind: 'error',
      error: { codigo: '461', descripcion: 'Orden' },
    });
  });

  it('reads HTTP 429 with its envelope as the business error 514', async () => {
    stubFetch(jsonResponse(envelope('514', 'Demasiadas solicitudes.'), 429));
    await expect(postEnvelope('/prod/llamada', {}, 'llamadaResponse')).resolves.toEqual({
      kind: 'error',
      error: { codigo: '514', descripcion: 'Demasiadas solicitudes.' },
    });
  });

  it.each([
    ['HTTP 429 without an envelope', jsonResponse({ message: 'Too Many Requests' }, 429), 'http'],
    ['HTTP 400 with an envelope', jsonResponse(envelope('400', 'Solicitud inválida.'), 400), 'http'],
    ['HTTP 500', jsonResponse(envelope('500', 'Error'), 500), 'http'],
    ['an answer of another call', jsonResponse({ otraResponse: {} }), 'parse'],
    ['a network failure', new TypeError('Failed to fetch'), 'network'],
  ])('throws an ApiError on %s', async (_label, answer, kind) => {
    stubFetch(answer);
    expect((await failure(postEnvelope('/prod/llamada', {}, 'llamadaResponse'))).kind).toBe(kind);
  });
});
