import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { ROUTES } from '../../lib/paths';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { LocationDisplay } from '../../test/location-display';
import { SuccessVoucherPage } from './success-voucher-page';

const pago = {
  numeroProducto: '630055667788',
  descripcionProducto: 'CREDITO MYPE',
  detallePago: { numeroCuota: 9, montoPagado: 156_300, numeroAutorizacion: '557248', cantidadCuotas: 1 },
  rutDeudor: '11.111.111-1',
  fechaPago: '20261121',
  horaPago: '13:00:42',
  medioPago: 'CUENTA VISTA',
  idTransaccion: 'trx-1',
  cuentaPago: '****5601',
  email: 'cam***@example.cl',
};
const voucher = () => jsonResponse({ consultarPagoResponse: { listaPago: { pago } } });
const error = (codigo: string, descripcion: string) =>
  jsonResponse({ consultarPagoResponse: { error: { errores: { detalleError: { codigo, descripcion } } } } });

function renderVoucher(path = '/pagoexpress/successvoucher/trx-1?categoria=PM&factor=TCOO') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={ROUTES.successVoucher.path} element={<SuccessVoucherPage />} />
          <Route path="*" element={null} />
        </Routes>
        <LocationDisplay />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { location: () => screen.getByTestId('location').textContent };
}

beforeEach(() => {
  useAppStore.getState().reset();
  useAppStore.setState({
    customer: { rut: '11111111-1', rememberMe: false, token: 'token-de-sesion' },
    config: { parameters: { sessionTimeOut: '5' }, isAuthenticated: true },
    selection: { family: 'PM', productsToPay: [{ productNumber: '630055667788', installment: ['9|156300|20261210|A|0'] }], amount: 156_300 },
    payment: { idTrx: 'trx-1', amount: 156_300 },
  });
});

describe('success voucher', () => {
  it('reads the voucher with call 7 and shows the paid summary', async () => {
    const fetch = stubFetch(voucher());
    renderVoucher();
    expect(await screen.findByRole('heading', { level: 1, name: 'Pago exitoso' })).toBeDefined();
    expect(sentBody(fetch)).toEqual({
      consultarPagoRequest: { userId: '11111111-1', canalLlamada: 'PGEX', idTransaccion: 'trx-1', token: 'token-de-sesion' },
    });
    expect(screen.getAllByText('$156.300')).toHaveLength(2);
    expect(screen.getByText('Crédito MYPE')).toBeDefined();
    expect(screen.getByText('Nº ****7788')).toBeDefined();
    expect(screen.getByText('Cuota Nº 9')).toBeDefined();
    expect(screen.getByText('557248')).toBeDefined();
    expect(screen.getByText('21/11/2026')).toBeDefined();
    expect(screen.getByText('13:00 hrs.')).toBeDefined();
    expect(screen.getByText('Débito Cuenta Vista')).toBeDefined();
    expect(screen.getByText('****5601')).toBeDefined();
    expect(screen.getByText('Tarjeta de coordenadas')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });

  it("'Nuevo Pago' keeps the member's RUT, forgets the payment and the session, and opens step 1", async () => {
    const user = userEvent.setup();
    stubFetch(voucher());
    const { location } = renderVoucher();
    await user.click(await screen.findByRole('button', { name: 'Nuevo Pago' }));
    expect(location()).toBe('/pagoonline/stepone');
    const state = useAppStore.getState();
    expect(state.customer.rut).toBe('11111111-1');
    expect(state.customer.token).toBe('');
    expect(state.config.parameters).toEqual({ sessionTimeOut: '5' });
    expect(state.payment).toEqual({ idTrx: '', amount: 0 });
    expect(state.selection).toEqual({ family: null, productsToPay: [], amount: 0 });
    expect(state.products).toEqual([]);
  });

  it.each([
    ['509', '/pagoexpress/customError'],
    ['516', '/pagoexpress/customError'],
    ['476', '/pagoexpress/error'],
  ])('answer %s leads to %s', async (code, path) => {
    stubFetch(error(code, 'Tu pago aún se está procesando.'));
    const { location } = renderVoucher();
    await waitFor(() => expect(location()).toBe(path));
    if (path.endsWith('customError')) expect(useAppStore.getState().customError.message).toBe('Tu pago aún se está procesando.');
    expect(screen.queryByRole('heading', { name: 'Pago exitoso' })).toBeNull();
  });

  it('a failed call goes to the error page', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const { location } = renderVoucher();
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });

  it("without a session shows no 'Pago exitoso' and makes no call", () => {
    useAppStore.getState().reset();
    const fetch = stubFetch();
    renderVoucher();
    expect(screen.getByRole('heading', { level: 1, name: 'Comprobante no disponible' })).toBeDefined();
    expect(screen.queryByText('Pago exitoso')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});
