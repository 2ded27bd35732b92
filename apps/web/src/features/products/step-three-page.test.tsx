import { GENERIC_SERVICE_MESSAGE } from '@pago/domain/errors';
import type { Producto } from '@pago/domain/products';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore, type Selection } from '../../lib/app-store';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { LocationDisplay } from '../../test/location-display';
import { CARD_WARNING_TITLE, StepThreePage } from './step-three-page';
import { everyFamily, overdueMortgage, SEED_PARAMETERS } from './test-builders';

const RUT = '11111111-1';

function enterStepThree(category: string, selection: Selection, products: Producto[] = everyFamily()) {
  useAppStore.setState({
    customer: { rut: RUT, rememberMe: false, token: 'token-de-sesion' },
    config: { parameters: SEED_PARAMETERS, isAuthenticated: true },
    products,
    selection,
  });
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/pagoexpress/stepthree/${category}`]}>
        <Routes>
          <Route path="/pagoexpress/stepthree/:category" element={<StepThreePage />} />
          <Route path="*" element={null} />
        </Routes>
        <LocationDisplay />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return {
    location: () => screen.getByTestId('location').textContent,
    own: () => screen.getByRole('radio', { name: 'Cuenta Vista Cooperativa' }),
    card: () => screen.queryByRole('radio', { name: 'Webpay' }),
    proceed: () => screen.getByRole('button', { name: 'Continuar' }) as HTMLButtonElement,
  };
}

const mortgage: Selection = {
  family: 'HI',
  productsToPay: [{ productNumber: '610011112222', installment: ['41|412300|20300605|A|0'] }],
  amount: 412_300,
};
const consumer: Selection = {
  family: 'PC',
  productsToPay: [{ productNumber: '410012345678', installment: ['21|85430|20300612|A|0', '22|20000|20300712|A|0'] }],
  amount: 105_430,
};
const card: Selection = {
  family: 'TC',
  productsToPay: [{ productNumber: '5412000011112222', installment: ['1|35000|20300625|A|0'] }],
  amount: 35_000,
};

const selected = (idTransaccion: string, montoTotal: number) =>
  jsonResponse({ seleccionarProductoResponse: { codigo: '200', idTransaccion, montoTotal } });
const refused = (codigo: string, descripcion: string) =>
  jsonResponse({ seleccionarProductoResponse: { error: { errores: { detalleError: { codigo, descripcion } } } } });

beforeEach(() => {
  useAppStore.getState().reset();
  // The server answers only the steps' questions on availability (every family open) unless a test stubs more.
  stubFetch();
});

describe('step 3: the methods offered', () => {
  it("offers the cooperative's own method, and not the card provider for a current mortgage (pagoWebPayHI 0)", () => {
    const { own, card, proceed } = enterStepThree('HI', mortgage);
    expect(screen.getByRole('heading', { level: 1, name: 'Selecciona tu medio de pago' })).toBeVisible();
    expect(screen.getByRole('listitem', { current: 'step' }).textContent).toContain('Medio de Pago');
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    // The only method offered is the member's choice already: 'Continuar' needs no tap before it.
    expect(own().getAttribute('aria-checked')).toBe('true');
    expect(card()).toBeNull();
    expect(proceed().disabled).toBe(false);
  });

  it('offers the card provider for a mortgage overdue past the grace days', () => {
    const { card } = enterStepThree(
      'HI',
      { family: 'HI', productsToPay: [{ productNumber: '610098765432', installment: ['61|398200|20300301|V|75'] }], amount: 398_200 },
      [overdueMortgage()],
    );
    expect(card()).not.toBeNull();
    expect(screen.getAllByRole('radio')).toHaveLength(2);
  });

  it('summarises the total step 2 stored and each product masked with what is paid of it', () => {
    enterStepThree('PC', consumer);
    const summary = screen.getByRole('complementary', { name: 'Resumen de tu pago' });
    expect(within(summary).getByText('Total a pagar')).toBeVisible();
    expect(within(summary).getByText('$105.430')).toBeVisible();
    expect(within(summary).getByText('Crédito de Consumo')).toBeVisible();
    expect(within(summary).getByText('Nº ****5678')).toBeVisible();
    expect(within(summary).getByText('$85.430')).toBeVisible();
    expect(within(summary).getByText('$20.000')).toBeVisible();
    expect(summary.textContent).toContain('Cuota Nº 21');
    expect(summary.textContent).toContain('Vence 12/06/2030');
  });

  it("'Volver' goes back to step 2 of the category", () => {
    enterStepThree('HI', mortgage);
    expect(screen.getByRole('link', { name: 'Volver' }).getAttribute('href')).toBe('/pagoexpress/steptwo/HI');
  });

  it.each<[string, Selection]>([
    ['no selection', { family: null, productsToPay: [], amount: 0 }],
    ['a selection of another category', consumer],
  ])('goes back to step 2 with %s', async (_label, selection) => {
    const { location } = enterStepThree('HI', selection);
    await waitFor(() => expect(location()).toBe('/pagoexpress/steptwo/HI'));
  });
});

describe('step 3: the credit-card warning', () => {
  it('warns that a credit card is paid with debit or prepaid cards; Cancelar leaves the card provider unchosen', async () => {
    const user = userEvent.setup();
    const { card: cardRadio, proceed } = enterStepThree('TC', card);
    await user.click(cardRadio()!);
    const dialog = await screen.findByRole('dialog', { name: CARD_WARNING_TITLE });
    expect(dialog.textContent).toContain('Para pagarla con Webpay usa una tarjeta de débito o prepago.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cardRadio()!.getAttribute('aria-checked')).toBe('false');
    expect(proceed().disabled).toBe(true);
  });

  it("'Entendido' chooses the card provider", async () => {
    const user = userEvent.setup();
    const { card: cardRadio, proceed } = enterStepThree('TC', card);
    await user.click(cardRadio()!);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Entendido' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cardRadio()!.getAttribute('aria-checked')).toBe('true');
    expect(proceed().disabled).toBe(false);
  });

  it('does not warn for another family', async () => {
    const user = userEvent.setup();
    const { card: cardRadio } = enterStepThree('PC', consumer);
    await user.click(cardRadio()!);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(cardRadio()!.getAttribute('aria-checked')).toBe('true');
  });
});

describe('step 3: the selection call', () => {
  it("sends the selection and opens the own-account login with the server's total", async () => {
    const fetch = stubFetch(selected('a1b2c3', 105_431));
    const user = userEvent.setup();
    const { own, proceed, location } = enterStepThree('PC', consumer);
    await user.click(own());
    await user.click(proceed());
    await waitFor(() => expect(location()).toBe('/pagoexpress/PC/coopmethodpay'));
    expect(fetch.mock.calls[0]?.[0]).toBe('/prod/producto/seleccionar');
    expect(sentBody(fetch)).toEqual({
      seleccionarProductoRequest: {
        userId: RUT,
        canalLlamada: 'PGEX',
        token: 'token-de-sesion',
        rut: RUT,
        producto: [
          {
            numeroProducto: '410012345678',
            tipoFamiliaProducto: 'PC',
            nombreFamiliaProducto: 'Crédito de Consumo',
            detalleProducto: [
              { numeroCuota: '21', valorAPagar: 85_430, fechaVencimiento: '20300612' },
              { numeroCuota: '22', valorAPagar: 20_000, fechaVencimiento: '20300712' },
            ],
          },
        ],
      },
    });
    const state = useAppStore.getState();
    expect(state.payment).toEqual({ idTrx: 'a1b2c3', amount: 105_431 });
    expect(state.methodPay).toBe('coopmethodpay');
  });

  it('opens the card provider page with the card method', async () => {
    stubFetch(selected('d4e5f6', 105_430));
    const user = userEvent.setup();
    const { card: cardRadio, proceed, location } = enterStepThree('PC', consumer);
    await user.click(cardRadio()!);
    await user.click(proceed());
    await waitFor(() => expect(location()).toBe('/pagoexpress/PC/webpaymethodpay'));
    expect(useAppStore.getState().methodPay).toBe('webpaymethodpay');
    expect(useAppStore.getState().payment.idTrx).toBe('d4e5f6');
  });

  it('shows a loader and keeps the member from sending twice while the call is under way', async () => {
    let answer!: (response: Response) => void;
    const fetch = stubFetch(new Promise<Response>((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    const { own, proceed, location } = enterStepThree('PC', consumer);
    await user.click(own());
    await user.click(proceed());
    expect(await screen.findByRole('status')).toBeVisible();
    expect(proceed().disabled).toBe(true);
    answer(selected('a1', 105_430));
    await waitFor(() => expect(location()).toBe('/pagoexpress/PC/coopmethodpay'));
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it.each<[string, 'own' | 'card', Response | Error, string, string | null]>([
    ['own method, a known code', 'own', refused('461', 'Debes pagar desde la cuota más antigua.'), '/pagoexpress/customError', 'Debes pagar desde la cuota más antigua.'],
    ['own method, session expired', 'own', refused('476', 'Tu sesión ha expirado.'), '/pagoexpress/customError', 'Tu sesión ha expirado.'],
    ['own method, an unknown code', 'own', refused('777777', 'Interno.'), '/pagoexpress/customError', GENERIC_SERVICE_MESSAGE],
    ['card method, a code it shows', 'card', refused('4953', 'Fuera de horario.'), '/pagoexpress/customError', 'Fuera de horario.'],
    ['card method, a code it does not show', 'card', refused('464', 'Monto de abono inválido.'), '/pagoexpress/error', null],
    ['a network failure', 'own', new TypeError('Failed to fetch'), '/pagoexpress/error', null],
    ['HTTP 500', 'card', jsonResponse({ seleccionarProductoResponse: {} }, 500), '/pagoexpress/error', null],
    ['an answer without a transaction', 'own', jsonResponse({ seleccionarProductoResponse: { codigo: '200' } }), '/pagoexpress/error', null],
  ])('%s', async (_label, kind, answer, path, message) => {
    stubFetch(answer);
    const user = userEvent.setup();
    const { own, card: cardRadio, proceed, location } = enterStepThree('PC', consumer);
    await user.click(kind === 'own' ? own() : cardRadio()!);
    await user.click(proceed());
    await waitFor(() => expect(location()).toBe(path));
    if (message) expect(useAppStore.getState().customError.message).toBe(message);
    expect(useAppStore.getState().payment.idTrx).toBe('');
  });
});
