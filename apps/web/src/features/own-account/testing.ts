import { vi } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { smallChallenge } from '../../lib/captcha-test-challenge';
import { jsonResponse } from '../../test/fetch-stub';

// For tests only (nothing in the app imports it): fetch answered per path, and a store as step 3 leaves it.

type Answer = unknown;

/** A business error inside a call's envelope. */
export const businessError = (responseName: string, codigo: string, descripcion = `Descripción ${codigo}.`) => ({
  [responseName]: { error: { errores: { detalleError: { codigo, descripcion } } } },
});

/**
 * Stubs fetch with answers per path, in order; the last answer of a path repeats (a poll keeps getting it). An
 * Error answer is thrown (a network failure). A path without answers fails the call loudly.
 */
export function stubServer(routes: Record<string, Answer[]>) {
  const queues = new Map(Object.entries(routes).map(([path, answers]) => [path, [...answers]]));
  const calls: { path: string; body: unknown; headers: Record<string, string> }[] = [];
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const path = String(input);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ path, body: init?.body ? (JSON.parse(String(init.body)) as unknown) : null, headers });
    const queue = queues.get(path);
    if (!queue || queue.length === 0) throw new Error(`Unexpected fetch of ${path}`);
    const next = queue.length > 1 ? queue.shift() : queue[0];
    if (next instanceof Error) throw next;
    return jsonResponse(next);
  });
  vi.stubGlobal('fetch', mock);
  return {
    mock,
    calls,
    /** The bodies sent to `path`, in order. */
    sent: (path: string) => calls.filter((call) => call.path === path).map((call) => call.body),
  };
}

/** n fresh captcha challenges, each answered once. */
export async function captchas(n: number): Promise<Answer[]> {
  return Promise.all(Array.from({ length: n }, () => smallChallenge()));
}

/** The store as step 3 leaves it: a member in session with a pending transaction of `amount`. */
export function givenPendingPayment({ rut = '11111111-1', amount = 156_300 } = {}) {
  useAppStore.setState({
    customer: { rut, rememberMe: false, token: 'token-de-sesion' },
    config: { parameters: { sessionTimeOut: '5' }, isAuthenticated: true },
    selection: {
      family: 'PM',
      productsToPay: [{ productNumber: '630055667788', installment: [`9|${amount}|20261210|A|0`] }],
      amount,
    },
    payment: { idTrx: 'trx-1', amount },
  });
}

/** …and the payer logged in with these factors. */
export function givenLoggedIn({ payerRut = '11111111-1', factores = [1, 2] as (1 | 2)[], selectedFactor = null as 1 | 2 | null } = {}) {
  givenPendingPayment();
  useAppStore.getState().setLogin({
    loginResponse: { rut: payerRut, account: '000031245601', factores },
    selectedFactor: selectedFactor ?? (factores.includes(2) ? 2 : factores.includes(1) ? 1 : null),
  });
}
