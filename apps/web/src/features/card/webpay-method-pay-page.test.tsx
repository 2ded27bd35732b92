import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { cardPaymentState, ID, renderAt } from './card-test-kit';
import { WebpayMethodPayPage } from './webpay-method-pay-page';

const URL_INIT = 'https://webpay.example/webpayserver/initTransaction';
const WEBPAY_TOKEN = 'e'.repeat(64);

function enter() {
  return renderAt('/pagoexpress/PM/webpaymethodpay', '/pagoexpress/:category/webpaymethodpay', <WebpayMethodPayPage />);
}

/** What the screen posted: jsdom cannot navigate, so HTMLFormElement.submit is watched instead. */
function watchSubmit() {
  return vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
}

beforeEach(() => {
  useAppStore.getState().reset();
  cardPaymentState();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('webpaymethodpay: handing over to Webpay', () => {
  it('says where the member is going and how much, then posts token_ws to Webpay once, even in strict mode', async () => {
    let answerAuth!: (response: Response) => void;
    const fetch = stubFetch(
      new Promise<Response>((resolve) => (answerAuth = resolve)),
      jsonResponse({ token: WEBPAY_TOKEN, url: URL_INIT }),
    );
    const submit = watchSubmit();
    enter();

    expect(screen.getByRole('heading', { level: 1, name: 'Pago con Webpay' })).toBeVisible();
    expect(screen.getByText('Serás redirigido a Webpay para completar tu pago.')).toBeVisible();
    expect(screen.getByText('$156.300')).toBeVisible();
    expect(screen.getByText('Crédito MYPE Nº ****7788 · 1 cuota')).toBeVisible();
    expect(screen.getByRole('status').textContent).toBe('Preparando tu pago…');
    expect(screen.queryByRole('button', { name: 'Ir a Webpay' })).toBeNull();

    await act(async () => answerAuth(jsonResponse({ code: 0, token: 'host-token' })));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));

    // Strict mode ran every effect twice: still one auth, one initMall, one post.
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(sentBody(fetch, 1)).toMatchObject({ transactionId: ID });
    const form = submit.mock.contexts[0] as HTMLFormElement;
    expect(form.method).toBe('post');
    expect(form.action).toBe(URL_INIT);
    expect([...new FormData(form).entries()]).toEqual([['token_ws', WEBPAY_TOKEN]]);
    expect(screen.getByRole('status').textContent).toContain('Redirigiendo a Webpay…');
    // The way there when the browser blocks the script's submit.
    expect(screen.getByRole('button', { name: 'Ir a Webpay' }).closest('form')).toBe(form);
    expect(useAppStore.getState().cardProvider).toEqual({
      idTrx: ID,
      tokenJWT: 'host-token',
      tokenWP: WEBPAY_TOKEN,
      urlInit: URL_INIT,
    });
  });

  it('says which cards are taken, from pagoDebitoCredito of the family', async () => {
    stubFetch(new Promise<Response>(() => {}));
    useAppStore.setState({
      config: { parameters: { pagoDebitoCreditoPM: '0' }, isAuthenticated: true },
    });
    enter();
    expect(screen.getByText('Paga con tu tarjeta de débito o prepago.')).toBeVisible();
  });

  it('shows the description of a card-path refusal on customError (463)', async () => {
    stubFetch(
      jsonResponse({ code: 0, token: 'host-token' }),
      jsonResponse({ code: 463, descripcion: 'El monto ingresado no es válido o excede el monto pendiente.' }),
    );
    const submit = watchSubmit();
    const { location } = enter();
    await waitFor(() => expect(location()).toBe('/pagoexpress/customError'));
    expect(useAppStore.getState().customError.message).toBe(
      'El monto ingresado no es válido o excede el monto pendiente.',
    );
    expect(submit).not.toHaveBeenCalled();
  });

  it('goes to the error page on any other refusal (442)', async () => {
    stubFetch(jsonResponse({ code: 442, descripcion: 'Esta transacción ya fue pagada o se encuentra cerrada.' }));
    const { location } = enter();
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });

  it('goes to the error page when the payment host cannot be reached', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const { location } = enter();
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });

  it('does not open a second Webpay transaction when the member comes back to it: it offers the form again', () => {
    const fetch = stubFetch();
    const submit = watchSubmit();
    useAppStore.getState().setCardProvider({ idTrx: ID, tokenJWT: 'host-token', tokenWP: WEBPAY_TOKEN, urlInit: URL_INIT });
    enter();
    expect(screen.getByText(/Ya iniciaste este pago en Webpay/)).toBeVisible();
    expect(screen.queryByText(/Serás redirigido/)).toBeNull();
    const button = screen.getByRole('button', { name: 'Ir a Webpay' });
    expect((button.closest('form') as HTMLFormElement).action).toBe(URL_INIT);
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
    expect(fetch).not.toHaveBeenCalled();
    expect(submit).not.toHaveBeenCalled();
  });

  it('offers the form again, without a spinner, when the page comes back from the back-forward cache', async () => {
    stubFetch(jsonResponse({ code: 0, token: 'host-token' }), jsonResponse({ token: WEBPAY_TOKEN, url: URL_INIT }));
    const submit = watchSubmit();
    enter();
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    expect(screen.getByText(/Ya iniciaste este pago en Webpay/)).toBeVisible();
    expect(screen.getByRole('status').textContent).toBe('');
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['without a transaction', { payment: { idTrx: '', amount: 0 } }],
    ['with the own-account method', { methodPay: 'coopmethodpay' }],
    ['with a selection of another family', { selection: { family: 'PC' as const, productsToPay: [], amount: 0 } }],
  ])('sends nothing %s and offers the products instead', (_label, state) => {
    const fetch = stubFetch();
    useAppStore.setState(state);
    enter();
    expect(screen.getByText('No tienes un pago en curso. Selecciona los productos que quieres pagar.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ir a mis productos' }).getAttribute('href')).toBe('/pagoonline/stepone');
    expect(fetch).not.toHaveBeenCalled();
  });
});
