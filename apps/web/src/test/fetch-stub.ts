import { vi } from 'vitest';

/*
 * The server is outside the browser, so `fetch` is the one thing tests replace. Nothing of our own is mocked.
 */

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Stubs fetch with one answer (or failure) per call, in order; returns the mock to inspect its calls. */
export function stubFetch(...answers: Array<Response | Error | Promise<Response>>) {
  const queue = [...answers];
  const mock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit): Promise<Response> => {
    const next = queue.shift();
    if (next === undefined) throw new Error('fetch called more times than the test expected');
    if (next instanceof Error) throw next;
    return next;
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The JSON body of the n-th fetch call. */
export function sentBody(mock: ReturnType<typeof stubFetch>, call = 0): unknown {
  const init = mock.mock.calls[call]?.[1];
  return JSON.parse(String(init?.body));
}
