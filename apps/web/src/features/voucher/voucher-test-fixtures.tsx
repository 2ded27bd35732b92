import type { Pago } from '@pago/domain/schemas/call-consultar-pago';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ROUTES } from '../../lib/paths';
import { LocationDisplay } from '../../test/location-display';
import { SuccessVoucherPage } from './success-voucher-page';

/** One paid MYPE instalment, as call 7 answers it for the demo member 11.111.111-1. */
export const samplePago = (over: Partial<Pago> = {}): Pago => ({
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
  ...over,
});

export const VOUCHER_URL = '/pagoexpress/successvoucher/trx-1?categoria=PM&factor=TCOO';

/** The voucher screen alone at `path`, with where it leads shown by LocationDisplay. */
export function renderVoucherScreen(path = VOUCHER_URL) {
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
