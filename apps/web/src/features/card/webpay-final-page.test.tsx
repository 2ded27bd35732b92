import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { cardPaymentState, ID, RUT, renderAt, SESSION } from './card-test-kit';
import { CHECK_FAILED, WebpayFinalPage } from './webpay-final-page';

const enter = (search: string) =>
  renderAt(`/pagoexpress/webpayfinal${search}`, '/pagoexpress/webpayfinal', <WebpayFinalPage />);
const refused = (codigo: string, descripcion: string) =>
  jsonResponse({ consultarPagoResponse: { error: { errores: { detalleError: { codigo, descripcion } } } } });
const STILL_PROCESSING = 'Tu pago aún se está procesando. El comprobante estará disponible en unos momentos.';
const paid = () =>
  jsonResponse({
    consultarPagoResponse: {
      listaPago: {
        pago: {
          numeroProducto: '****7788',
          descripcionProducto: 'CREDITO MYPE',
          detallePago: { numeroCuota: 9, montoPagado: 156_300, numeroAutorizacion: '1213', cantidadCuotas: 1 },
          rutDeudor: '11111111-1',
          fechaPago: '20300605',
          horaPago: '12:00:00',
          medioPago: 'WEBPAY',
          idTransaccion: ID,
          cuentaPago: '',
          email: '',
        },
      },
    },
  });

beforeEach(() => {
  useAppStore.getState().reset();
  cardPaymentState();
});

describe('webpayfinal: a partial approval', () => {
  it('explains that some products were paid and others not, with the voucher and the home', () => {
    enter(`?idTransaccion=${ID}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Pago parcialmente aprobado' })).toBeVisible();
    expect(screen.getByText('Webpay aprobó el pago de algunos de tus productos y rechazó el de otros.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ver comprobante' }).getAttribute('href')).toBe(
      `/pagoexpress/successvoucher/${ID}?categoria=PM&factor=WEBPAY`,
    );
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });

  it.each(['', '?idTransaccion=abc', `?idTransaccion=${ID}&estado=aprobado`])(
    'goes to the error page for the query %j',
    async (search) => {
      const { location } = enter(search);
      await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
    },
  );
});

describe('webpayfinal: a payment Webpay has not confirmed yet', () => {
  const pending = `?idTransaccion=${ID}&estado=pendiente`;

  it('says it is being confirmed, and a check that is still pending says so in the live region', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(refused('509', STILL_PROCESSING));
    const { location } = enter(pending);
    expect(screen.getByRole('heading', { level: 1, name: 'Estamos confirmando tu pago' })).toBeVisible();
    expect(screen.getByRole('status').textContent).toBe('');

    await user.click(screen.getByRole('button', { name: 'Consultar nuevamente' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain(STILL_PROCESSING));
    expect(screen.getByRole('status').textContent).toMatch(/Consultado a las \d{2}:\d{2} hrs\./);
    expect(location()).toBe(`/pagoexpress/webpayfinal${pending}`);
    expect(fetch.mock.calls[0]![0]).toBe('/prod/pago/consultar');
    expect(sentBody(fetch)).toEqual({
      consultarPagoRequest: { userId: RUT, canalLlamada: 'PGEX', idTransaccion: ID, token: SESSION },
    });
  });

  it('replaces itself with the voucher once the payment is confirmed', async () => {
    const user = userEvent.setup();
    stubFetch(paid());
    const { location, navigation } = enter(pending);
    await user.click(screen.getByRole('button', { name: 'Consultar nuevamente' }));
    await waitFor(() => expect(location()).toBe(`/pagoexpress/successvoucher/${ID}?categoria=PM&factor=WEBPAY`));
    expect(navigation()).toBe('REPLACE');
  });

  it('asks once however often the button is pressed while a check is under way', async () => {
    let answer!: (response: Response) => void;
    const fetch = stubFetch(new Promise<Response>((resolve) => (answer = resolve)));
    enter(pending);
    const button = screen.getByRole('button', { name: 'Consultar nuevamente' });
    act(() => {
      button.click();
      button.click();
    });
    expect(screen.getByRole('button', { name: 'Consultando…' })).toBe(button);
    button.click();
    await act(async () => answer(refused('509', STILL_PROCESSING)));
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('shows the description of 516 on customError, as every voucher query does', async () => {
    const user = userEvent.setup();
    stubFetch(refused('516', 'No encontramos el comprobante de esta transacción.'));
    const { location } = enter(pending);
    await user.click(screen.getByRole('button', { name: 'Consultar nuevamente' }));
    await waitFor(() => expect(location()).toBe('/pagoexpress/customError'));
    expect(useAppStore.getState().customError.message).toBe('No encontramos el comprobante de esta transacción.');
  });

  it('stays, and says so, when the check cannot be made', async () => {
    const user = userEvent.setup();
    stubFetch(new TypeError('Failed to fetch'));
    const { location } = enter(pending);
    await user.click(screen.getByRole('button', { name: 'Consultar nuevamente' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(CHECK_FAILED));
    expect(location()).toBe(`/pagoexpress/webpayfinal${pending}`);
    expect(screen.getByRole('button', { name: 'Consultar nuevamente' })).toBeVisible();
  });

  it('without the session that paid, explains how to find out later instead of offering a check', () => {
    useAppStore.getState().reset();
    enter(pending);
    expect(screen.queryByRole('button', { name: 'Consultar nuevamente' })).toBeNull();
    expect(screen.getByText(/Ingresa de nuevo con tu RUT en unos minutos/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ir al Home' })).toBeVisible();
  });
});
