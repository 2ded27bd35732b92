import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { CAPTCHA_CHALLENGE_PATH } from '../../lib/captcha';
import { ROUTES } from '../../lib/paths';
import { LocationDisplay } from '../../test/location-display';
import { METHOD_PAY_TITLE, MethodPayPage } from './method-pay-page';
import { businessError, captchas, givenPendingPayment, stubServer } from './testing';

const AUT = '/prod/pago/producto/cuentavista/autentica';
const RESPONSE = 'autenticaConsultaFactoresResponse';
const ok = (factores: number[]) => ({
  [RESPONSE]: { codigo: '200', numeroCuenta: '000031245610', factores: factores.map((factor) => ({ factor })) },
});

function renderLogin() {
  render(
    <MemoryRouter initialEntries={['/pagoexpress/PM/coopmethodpay']}>
      <Routes>
        <Route path={ROUTES.methodPay.path} element={<MethodPayPage />} />
        <Route path="*" element={null} />
      </Routes>
      <LocationDisplay />
    </MemoryRouter>,
  );
  return {
    rut: screen.getByRole('textbox', { name: 'RUT' }) as HTMLInputElement,
    password: screen.getByLabelText('Clave de internet') as HTMLInputElement,
    enter: screen.getByRole('button', { name: 'Ingresar' }) as HTMLButtonElement,
    location: () => screen.getByTestId('location').textContent,
  };
}

beforeEach(() => {
  useAppStore.getState().reset();
  givenPendingPayment();
});

describe('checking-account login', () => {
  it('shows the amount, the RUT of the member (editable) and an 8-character password field', async () => {
    stubServer({ [CAPTCHA_CHALLENGE_PATH]: await captchas(1) });
    const { rut, password, enter } = renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: METHOD_PAY_TITLE })).toBeVisible();
    expect(screen.getByText('$156.300')).toBeVisible();
    expect(screen.getByText('Crédito MYPE Nº ****7788 · 1 cuota')).toBeVisible();
    expect(rut.value).toBe('11.111.111-1');
    expect(password.type).toBe('password');
    expect(password.maxLength).toBe(8);
    expect(enter.disabled).toBe(true);
  });

  it('logs the member in and goes to the challenge, with the authoriser chosen when both factors exist', async () => {
    const user = userEvent.setup();
    const server = stubServer({ [CAPTCHA_CHALLENGE_PATH]: await captchas(2), [AUT]: [ok([1, 2])] });
    const { password, enter, location } = renderLogin();
    await user.type(password, '1234');
    await user.click(enter);
    await waitFor(() => expect(location()).toBe('/pagoexpress/PM/coopmethodpaychallenge'));
    expect(server.sent(AUT)).toEqual([
      {
        autenticaConsultaFactoresRequest: {
          userId: '11111111-1',
          canalLlamada: 'PGEX',
          token: 'token-de-sesion',
          autenticacion: { rut: '11111111', dv: '1', clave: '1234' },
        },
      },
    ]);
    // The captcha solved on entry went with the call.
    expect(server.calls.find((call) => call.path === AUT)?.headers['Authorization']).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
    const { payment } = useAppStore.getState();
    expect(payment.loginResponse).toEqual({ rut: '11111111-1', account: '000031245610', factores: [1, 2] });
    expect(payment.availableFactors).toEqual([1, 2]);
    expect(payment.selectedFactor).toBe(2);
  });

  it('sends a third party to the security-factor screen', async () => {
    const user = userEvent.setup();
    stubServer({ [CAPTCHA_CHALLENGE_PATH]: await captchas(2), [AUT]: [ok([1])] });
    const { rut, password, enter, location } = renderLogin();
    await user.clear(rut);
    await user.type(rut, '19191919k');
    expect(rut.value).toBe('19.191.919-K');
    await user.type(password, '1234');
    await user.click(enter);
    await waitFor(() => expect(location()).toBe('/pagoexpress/PM/SecurityFactor'));
    expect(useAppStore.getState().payment.selectedFactor).toBe(1);
    expect(useAppStore.getState().payment.loginResponse?.rut).toBe('19191919-K');
  });

  it('keeps Ingresar disabled for an invalid RUT, with the error tied to the field', async () => {
    const user = userEvent.setup();
    stubServer({ [CAPTCHA_CHALLENGE_PATH]: await captchas(1) });
    const { rut, password, enter } = renderLogin();
    await user.clear(rut);
    await user.type(rut, '111111112');
    await user.type(password, '1234');
    const error = screen.getByText('Rut inválido');
    expect(rut.getAttribute('aria-describedby')).toContain(error.id);
    expect(enter.disabled).toBe(true);
  });

  it("a wrong password shows the description with 'Reintentar', which clears the password and solves a new captcha", async () => {
    const user = userEvent.setup();
    const server = stubServer({
      [CAPTCHA_CHALLENGE_PATH]: await captchas(3),
      [AUT]: [businessError(RESPONSE, '45203113', 'RUT o clave incorrecta.'), ok([1])],
    });
    const { password, enter, location } = renderLogin();
    await user.type(password, 'mala');
    await user.click(enter);
    const dialog = await screen.findByRole('dialog', { name: 'No pudimos validar tus datos' });
    expect(dialog.textContent).toContain('RUT o clave incorrecta.');
    const captchaCalls = () => server.calls.filter((call) => call.path === CAPTCHA_CHALLENGE_PATH).length;
    const before = captchaCalls();
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(password.value).toBe('');
    expect(captchaCalls()).toBe(before + 1);
    expect(location()).toBe('/pagoexpress/PM/coopmethodpay');

    await user.type(password, '1234');
    await user.click(enter);
    await waitFor(() => expect(location()).toBe('/pagoexpress/PM/coopmethodpaychallenge'));
    // Each call carried a captcha of its own.
    const tokens = server.calls.filter((call) => call.path === AUT).map((call) => call.headers['Authorization']);
    expect(new Set(tokens).size).toBe(2);
  });

  it.each([
    ['45203016', '/pagoexpress/bloquedUser'],
    ['451', '/pagoexpress/ErrorLogin'],
    ['476', '/pagoexpress/error'],
    ['482', '/pagoexpress/error'],
    ['987', '/pagoexpress/error'],
  ])('answer %s leads to %s', async (code, path) => {
    const user = userEvent.setup();
    stubServer({ [CAPTCHA_CHALLENGE_PATH]: await captchas(2), [AUT]: [businessError(RESPONSE, code)] });
    const { password, enter, location } = renderLogin();
    await user.type(password, '1234');
    await user.click(enter);
    await waitFor(() => expect(location()).toBe(path));
  });

  it('a call that fails without an answer goes to the error page', async () => {
    const user = userEvent.setup();
    stubServer({ [CAPTCHA_CHALLENGE_PATH]: await captchas(2), [AUT]: [new TypeError('Failed to fetch')] });
    const { password, enter, location } = renderLogin();
    await user.type(password, '1234');
    await user.click(enter);
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });

  it('without a pending transaction, points back to the products', () => {
    useAppStore.getState().reset();
    useAppStore.setState({ config: { parameters: {}, isAuthenticated: true } });
    render(
      <MemoryRouter initialEntries={['/pagoexpress/PM/coopmethodpay']}>
        <Routes>
          <Route path={ROUTES.methodPay.path} element={<MethodPayPage />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: METHOD_PAY_TITLE })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ir a mis productos' }).getAttribute('href')).toBe('/pagoonline/stepone');
  });
});
