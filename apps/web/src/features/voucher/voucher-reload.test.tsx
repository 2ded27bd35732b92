import type { Pago } from '@pago/domain/schemas/call-consultar-pago';
import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../app/router';
import { useAppStore } from '../../lib/app-store';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { startVoucherCall } from './api/consultar-pago-start';
import { renderVoucherScreen, samplePago, VOUCHER_URL } from './voucher-test-fixtures';

// Call 7 leaves with the voucher screen's code rather than after it (app/screens.tsx). Still one request per visit,
// for the session in the tab only, and its answers lead where the screen's own request led.

const CONSULTAR = '/prod/pago/consultar';

const voucher = (overrides: Partial<Pago> = {}) =>
  jsonResponse({ consultarPagoResponse: { listaPago: { pago: samplePago(overrides) } } });

function signIn(rut = '11111111-1', token = 'token-de-sesion') {
  useAppStore.setState({
    customer: { rut, rememberMe: false, token },
    config: { parameters: { sessionTimeOut: '5' }, isAuthenticated: true },
    payment: { idTrx: 'trx-1', amount: 156_300 },
  });
}

const calls = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.filter(([url]) => url === CONSULTAR).length;

/** The voucher screen alone, as after a client-side arrival whose call was already sent. */
const renderScreen = () => renderVoucherScreen();

beforeEach(() => {
  useAppStore.getState().reset();
  window.history.replaceState(null, '', '/');
});

describe('the voucher reloaded', () => {
  // First in this file: the screen's code is fetched once per page load, and call 7 with it.
  it('sends call 7 once, before the screen has arrived, and shows its answer', async () => {
    signIn();
    window.history.replaceState(null, '', VOUCHER_URL);
    const fetch = stubFetch(voucher());
    render(<App />);
    expect(calls(fetch)).toBe(1);
    expect(screen.queryByRole('heading', { level: 1, name: 'Pago exitoso' })).toBeNull();

    expect(await screen.findAllByText('$156.300')).toHaveLength(2);
    expect(screen.getByRole('heading', { level: 1, name: 'Pago exitoso' })).toBeVisible();
    expect(sentBody(fetch)).toEqual({
      consultarPagoRequest: { userId: '11111111-1', canalLlamada: 'PGEX', idTransaccion: 'trx-1', token: 'token-de-sesion' },
    });
    expect(calls(fetch)).toBe(1);
  });

  it('without a session sends nothing ahead', () => {
    window.history.replaceState(null, '', VOUCHER_URL);
    const fetch = stubFetch();
    startVoucherCall();
    expect(calls(fetch)).toBe(0);
  });

  it('only on the voucher: the same address in another case is not its route', () => {
    signIn();
    window.history.replaceState(null, '', '/pagoexpress/SuccessVoucher/trx-1');
    const fetch = stubFetch();
    startVoucherCall();
    expect(calls(fetch)).toBe(0);
  });

  it('a call sent ahead that failed goes to the error page, as the screen\'s own did, and is not repeated', async () => {
    signIn();
    window.history.replaceState(null, '', VOUCHER_URL);
    const fetch = stubFetch(new TypeError('Failed to fetch'));
    startVoucherCall();
    const { location } = renderScreen();
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
    expect(calls(fetch)).toBe(1);
  });

  it('a business error sent ahead is routed as before', async () => {
    signIn();
    window.history.replaceState(null, '', VOUCHER_URL);
    const fetch = stubFetch(
      jsonResponse({ consultarPagoResponse: { error: { errores: { detalleError: { codigo: '516', descripcion: 'Tu pago aún se está procesando.' } } } } }),
    );
    startVoucherCall();
    const { location } = renderScreen();
    await waitFor(() => expect(location()).toBe('/pagoexpress/customError'));
    expect(useAppStore.getState().customError.message).toBe('Tu pago aún se está procesando.');
    expect(calls(fetch)).toBe(1);
  });

  it('a malformed answer sent ahead is not shown', async () => {
    signIn();
    window.history.replaceState(null, '', VOUCHER_URL);
    const fetch = stubFetch(jsonResponse({ consultarPagoResponse: { listaPago: { pago: { ...samplePago(), medioPago: 'EFECTIVO' } } } }));
    startVoucherCall();
    const { location } = renderScreen();
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
    expect(screen.queryByText('$156.300')).toBeNull();
    expect(calls(fetch)).toBe(1);
  });

  it("an answer sent ahead for another session is dropped, never shown: the screen asks with its own", async () => {
    signIn('22222222-2', 'otra-sesion');
    window.history.replaceState(null, '', VOUCHER_URL);
    const fetch = stubFetch(voucher({ rutDeudor: '22.222.222-2' }), voucher());
    startVoucherCall();
    signIn();
    renderScreen();
    expect(await screen.findByText('**.***.111-1')).toBeVisible();
    expect(sentBody(fetch, 1)).toEqual({
      consultarPagoRequest: { userId: '11111111-1', canalLlamada: 'PGEX', idTransaccion: 'trx-1', token: 'token-de-sesion' },
    });
    // The voucher masks the RUT (decision 035): the session's own member's, never the other one's.
    expect(screen.getByText('**.***.111-1').tagName).toBe('DD');
    expect(screen.queryByText('**.***.222-2')).toBeNull();
  });
});
