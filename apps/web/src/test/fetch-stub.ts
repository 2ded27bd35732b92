import { AVAILABILITY_PATH, unavailableHours } from '@pago/domain/business-time';
import { FAMILIES, type Family } from '@pago/domain/families';
import { afterEach, vi } from 'vitest';

/*
 * The server is outside the browser, so `fetch` is the one thing tests replace. Nothing of our own is mocked.
 */

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let closedNow: readonly Family[] = [];

/**
 * The server's business clock, as GET /api/disponibilidad tells it to the steps: `families` are closed (until 02:00),
 * the rest open. Every family is open unless a test says otherwise.
 */
export function serveClosedFamilies(families: readonly Family[]): void {
  closedNow = families;
}

const availabilityAnswer = () =>
  jsonResponse({
    disponibilidad: FAMILIES.map((family) => ({
      tipoFamiliaProducto: family,
      disponible: !closedNow.includes(family),
      cierre: unavailableHours(family).from,
      apertura: unavailableHours(family).until,
    })),
  });

/**
 * Stubs fetch with one answer (or failure) per call, in order; returns the mock to inspect its calls. The steps'
 * questions on availability are answered apart (serveClosedFamilies), and are not among the mock's calls.
 */
export function stubFetch(...answers: Array<Response | Error | Promise<Response>>) {
  const queue = [...answers];
  const mock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit): Promise<Response> => {
    const next = queue.shift();
    if (next === undefined) throw new Error('fetch called more times than the test expected');
    if (next instanceof Error) throw next;
    return next;
  });
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === AVAILABILITY_PATH ? Promise.resolve(availabilityAnswer()) : mock(input, init),
  );
  return mock;
}

/** No call but the steps' questions on availability. */
export function stubAvailabilityOnly(): void {
  stubFetch();
}

/** The JSON body of the n-th fetch call. */
export function sentBody(mock: ReturnType<typeof stubFetch>, call = 0): unknown {
  const init = mock.mock.calls[call]?.[1];
  return JSON.parse(String(init?.body));
}

afterEach(() => {
  closedNow = [];
});
