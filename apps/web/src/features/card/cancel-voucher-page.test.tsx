import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { initialAppData, useAppStore } from '../../lib/app-store';
import { cardPaymentState, ID, PARAMETERS, RUT, renderAt } from './card-test-kit';
import { CancelMessagePage } from './cancel-message-page';
import { CancelVoucherPage } from './cancel-voucher-page';

const enter = (url: string) =>
  renderAt(url, '/pagoexpress/cancelvoucher/:idtrx', <CancelVoucherPage />);

beforeEach(() => {
  useAppStore.getState().reset();
  cardPaymentState();
});

describe('cancelvoucher: a card payment that was not made', () => {
  it("shows 'Pago rechazado' with the possible causes and the transaction", () => {
    enter(`/pagoexpress/cancelvoucher/${ID}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Pago rechazado' })).toBeVisible();
    const causes = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(causes).toEqual([
      'Error en el ingreso de los datos de tu tarjeta.',
      'Tu tarjeta no tiene saldo o cupo suficiente.',
      'Tu tarjeta no está habilitada para compras por internet.',
    ]);
    expect(screen.getByText(ID)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Nuevo Pago' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });

  it('words a payment the member cancelled on Webpay as a cancellation, with the cancelTrxMsg text', () => {
    enter(`/pagoexpress/cancelvoucher/${ID}?estado=anulado`);
    expect(screen.getByRole('heading', { level: 1, name: '¡Pago Anulado!' })).toBeVisible();
    expect(screen.getByText(PARAMETERS['cancelTrxMsg']!)).toBeVisible();
    expect(screen.queryByText(/Anulaste/)).toBeNull();
    expect(screen.queryByText('Pago rechazado')).toBeNull();
    expect(screen.getByRole('button', { name: 'Nuevo Pago' })).toBeVisible();
  });

  it("'Nuevo Pago' starts over at step 1 with the member's RUT, listing the products again", async () => {
    const user = userEvent.setup();
    const { location } = enter(`/pagoexpress/cancelvoucher/${ID}`);
    await user.click(screen.getByRole('button', { name: 'Nuevo Pago' }));
    await waitFor(() => expect(location()).toBe('/pagoonline/stepone'));
    const state = useAppStore.getState();
    expect(state.customer.rut).toBe(RUT);
    expect(state.payment).toEqual(initialAppData().payment);
    expect(state.cardProvider).toEqual(initialAppData().cardProvider);
  });

  it('words a form that ran out of time as a timeout, never as the member’s cancellation', () => {
    enter(`/pagoexpress/cancelvoucher/${ID}?estado=expirado`);
    expect(screen.getByRole('heading', { level: 1, name: 'Pago no completado' }).textContent).toBe('Pago no completado');
    expect(screen.getByText('Se agotó el tiempo para completar el pago en Webpay. No se realizó ningún cargo.').tagName).toBe('P');
    expect(screen.queryByText(/anul/i)).toBeNull();
    expect(screen.getByText(ID).tagName).toBe('DD');
  });

  it.each([
    ['reembolsado', 'Cargo devuelto', /Ya devolvimos el monto completo a tu tarjeta/],
    ['reembolso', 'Devolución en curso', /Estamos devolviendo el monto completo a tu tarjeta/],
    ['retenido', 'Cargo retenido', /el monto quedó retenido y nuestro equipo lo devolverá a tu tarjeta/],
  ])('says a card charged and not applied was charged (%s), never “no se hizo ningún cargo”', (estado, title, fate) => {
    enter(`/pagoexpress/cancelvoucher/${ID}?estado=${estado}`);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeVisible();
    expect(screen.getByText(/Webpay aprobó el cargo a tu tarjeta, pero no pudimos aplicarlo/)).toBeVisible();
    expect(screen.getByText(fate)).toBeVisible();
    expect(screen.queryByText(/ningún cargo/)).toBeNull();
    expect(screen.queryByText('Pago rechazado')).toBeNull();
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    expect(screen.getByText(ID).tagName).toBe('DD');
  });

  it('explains itself when opened without the session that paid (another tab, a link kept for later)', () => {
    useAppStore.setState({ customer: { rut: '', rememberMe: false, token: '' }, methodPay: 'coopmethodpay' });
    const { location } = enter(`/pagoexpress/cancelvoucher/${ID}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Comprobante no disponible' }).textContent).toBe('Comprobante no disponible');
    expect(location()).toBe(`/pagoexpress/cancelvoucher/${ID}`);
    expect(screen.queryByRole('button', { name: 'Nuevo Pago' })).toBeNull();
  });

  it('goes to cancelMessage when the method of payment is not the card provider (specification §4)', async () => {
    useAppStore.setState({ methodPay: 'coopmethodpay' });
    const { location, navigation } = enter(`/pagoexpress/cancelvoucher/${ID}`);
    await waitFor(() => expect(location()).toBe('/pagoexpress/cancelMessage'));
    expect(navigation()).toBe('REPLACE');
  });

  it('goes to the error page for an id that is not a transaction', async () => {
    const { location } = enter('/pagoexpress/cancelvoucher/abc');
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });
});

describe('cancelMessage', () => {
  it("shows '¡Pago Anulado!' with the cancelTrxMsg parameter and 'Ir al Home'", () => {
    renderAt('/pagoexpress/cancelMessage', '/pagoexpress/cancelMessage', <CancelMessagePage />);
    expect(screen.getByRole('heading', { level: 1, name: '¡Pago Anulado!' })).toBeVisible();
    expect(screen.getByText(PARAMETERS['cancelTrxMsg']!)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });
});

describe('the card-provider tokens in the app state', () => {
  it('are kept with the rest of the state and restored to their defaults by reset', () => {
    const tokens = { idTrx: ID, tokenJWT: 'host', tokenWP: 'wp', urlInit: 'https://webpay.example/init' };
    useAppStore.getState().setCardProvider(tokens);
    const stored = JSON.parse(sessionStorage.getItem('pago-online') ?? 'null') as { state: { cardProvider: unknown } };
    expect(stored.state.cardProvider).toEqual(tokens);
    useAppStore.getState().reset();
    expect(useAppStore.getState().cardProvider).toEqual({ idTrx: '', tokenJWT: '', tokenWP: '', urlInit: '' });
  });
});
