import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { ROUTES } from '../../lib/paths';
import { MethodPayChallengePage } from './method-pay-challenge-page';
import { SecurityFactorPage } from './security-factor-page';
import { businessError, givenLoggedIn, stubServer } from './testing';

const AUZ = '/prod/pago/producto/cuentavista/autorizar';
const PAG = '/prod/pago/producto/cuentavista/pagar';
const challenge = (cells = ['B3', 'E1', 'J5']) => ({
  autorizarPagoProductoCVResponse: {
    codigo: '200',
    numeroCuenta: '000031245601',
    desafio: { item: cells.map((valor) => ({ valor })) },
    vigencia: 120,
  },
});
const push = { autorizarPagoProductoCVResponse: { codigo: '200', numeroCuenta: '000031245601', vigencia: 120 } };
const paid = {
  pagarProductoCVResponse: {
    productoPagadoCV: { idTransaccion: 'trx-1', numeroProducto: '630055667788', montoPagado: 156_300, numeroAutorizacion: '123456' },
  },
};

function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{pathname + search}</div>;
}

function renderAt(path: string) {
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={ROUTES.methodPayChallenge.path} element={<MethodPayChallengePage />} />
        <Route path={ROUTES.securityFactor.path} element={<SecurityFactorPage />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
  return { ...view, location: () => screen.getByTestId('location').textContent };
}
const renderChallenge = () => renderAt('/pagoexpress/PM/coopmethodpaychallenge');
const coordinateFields = () => screen.getAllByRole('textbox', { name: /^Coordenada / }) as HTMLInputElement[];
const autorizar = () => screen.getByRole('button', { name: 'Autorizar' }) as HTMLButtonElement;

beforeEach(() => {
  useAppStore.getState().reset();
});

describe('coordinate card', () => {
  beforeEach(() => {
    givenLoggedIn({ factores: [1] });
  });

  it('asks for three cells, labels the fields with them and enables Autorizar only when all three are complete', async () => {
    const user = userEvent.setup();
    const server = stubServer({ [AUZ]: [challenge()] });
    renderChallenge();
    expect(screen.getByRole('heading', { level: 1, name: 'Ingresa tus coordenadas' })).toBeVisible();
    await screen.findByRole('textbox', { name: 'Coordenada B3' });
    expect(coordinateFields().map((field) => field.labels?.[0]?.textContent)).toEqual([
      'Coordenada B3',
      'Coordenada E1',
      'Coordenada J5',
    ]);
    for (const field of coordinateFields()) {
      expect(field.inputMode).toBe('numeric');
      expect(field.autocomplete).toBe('off');
      expect(field.maxLength).toBe(2);
    }
    expect(server.sent(AUZ)).toEqual([
      {
        autorizarPagoProductoCVRequest: {
          userId: '11111111-1',
          canalLlamada: 'PGEX',
          token: 'token-de-sesion',
          factor: 1,
          rut: '11111111-1',
          rutPago: '11111111-1',
        },
      },
    ]);
    expect((await screen.findByRole('timer')).textContent).toMatch(/^(2:00|1:59)$/);

    const [b3, e1, j5] = coordinateFields();
    await user.type(b3!, '4a2');
    expect(b3!.value).toBe('42');
    // Two digits move on to the next cell.
    expect(document.activeElement).toBe(e1);
    await user.type(e1!, '7');
    await user.type(j5!, '99');
    expect(autorizar().disabled).toBe(true);
    await user.type(e1!, '1');
    expect(autorizar().disabled).toBe(false);
  });

  it('pays with the three values and goes to the voucher with factor TCOO', async () => {
    const user = userEvent.setup();
    const server = stubServer({ [AUZ]: [challenge()], [PAG]: [paid] });
    const { location } = renderChallenge();
    await screen.findByRole('textbox', { name: 'Coordenada B3' });
    const [b3, e1, j5] = coordinateFields();
    await user.type(b3!, '42');
    await user.type(e1!, '07');
    await user.type(j5!, '99');
    await user.click(autorizar());
    await waitFor(() => expect(location()).toBe('/pagoexpress/successvoucher/trx-1?categoria=PM&factor=TCOO'));
    expect(server.sent(PAG)).toEqual([
      {
        pagarProductoCVRequest: {
          userId: '11111111-1',
          canalLlamada: 'PGEX',
          token: 'token-de-sesion',
          rutTitular: '11111111-1',
          numeroCuenta: '000031245601',
          rutPago: '11111111-1',
          factor: 1,
          desafio: { item: [{ valor: '42' }, { valor: '07' }, { valor: '99' }] },
        },
      },
    ]);
  });

  it("wrong coordinates: the message in a modal, and 'Reintentar' asks for new cells with empty fields", async () => {
    const user = userEvent.setup();
    const server = stubServer({
      [AUZ]: [challenge(), challenge(['A1', 'C2', 'D4'])],
      [PAG]: [businessError('pagarProductoCVResponse', '5203007')],
    });
    renderChallenge();
    await screen.findByRole('textbox', { name: 'Coordenada B3' });
    for (const field of coordinateFields()) await user.type(field, '11');
    await user.click(autorizar());
    const dialog = await screen.findByRole('dialog', { name: 'No pudimos autorizar tu pago' });
    expect(dialog.textContent).toContain('Las coordenadas no corresponden. Por favor, intenta nuevamente.');
    await user.click(screen.getAllByRole('button', { name: 'Reintentar' })[0]!);
    await screen.findByRole('textbox', { name: 'Coordenada A1' });
    expect(coordinateFields().map((field) => field.value)).toEqual(['', '', '']);
    expect(server.sent(AUZ)).toHaveLength(2);
  });

  it('a blocked card is not retried: the modal closes to Ir al Home', async () => {
    const user = userEvent.setup();
    stubServer({ [AUZ]: [challenge()], [PAG]: [businessError('pagarProductoCVResponse', '5203017')] });
    renderChallenge();
    await screen.findByRole('textbox', { name: 'Coordenada B3' });
    for (const field of coordinateFields()) await user.type(field, '11');
    await user.click(autorizar());
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('bloqueada por exceder el número de intentos');
    // Shown once: in the modal while it is open, in the panel after.
    expect(screen.getAllByText(/bloqueada por exceder el número de intentos/)).toHaveLength(1);
    expect(screen.queryByRole('link', { name: 'Ir al Home' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reintentar' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Aceptar' }));
    expect(screen.getAllByText(/bloqueada por exceder el número de intentos/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });

  it.each([
    [AUZ, '440', '/pagoexpress/PM/coopmethodpay'],
    [PAG, '47203', '/pagoexpress/InsufficientFunds'],
    [PAG, '7905', '/pagoexpress/InsufficientFunds'],
    [PAG, '442', '/pagoexpress/error'],
  ])('%s answering %s leads to %s', async (path, code, to) => {
    const user = userEvent.setup();
    const name = path === AUZ ? 'autorizarPagoProductoCVResponse' : 'pagarProductoCVResponse';
    stubServer({ [AUZ]: [path === AUZ ? businessError(name, code) : challenge()], [PAG]: [businessError(name, code)] });
    const { location } = renderChallenge();
    if (path === PAG) {
      await screen.findByRole('textbox', { name: 'Coordenada B3' });
      for (const field of coordinateFields()) await user.type(field, '11');
      await user.click(autorizar());
    }
    await waitFor(() => expect(location()).toBe(to));
  });

  describe('with fake timers', () => {
    beforeEach(() => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('counts 120 seconds in minutes and ends in the timeout state, with retry', async () => {
      stubServer({ [AUZ]: [challenge(), challenge(['A1', 'C2', 'D4'])] });
      renderChallenge();
      await screen.findByRole('textbox', { name: 'Coordenada B3' });
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(screen.getByRole('timer').textContent).toMatch(/^1:5\d$/);
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(screen.getByRole('timer').textContent).toMatch(/^0:5\d$/);
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      const dialog = await screen.findByRole('dialog');
      expect(dialog.textContent).toContain('Tienes un tiempo limitado para autorizar, inténtalo nuevamente.');
      expect(screen.queryByRole('textbox', { name: /^Coordenada/ })).toBeNull();
      act(() => screen.getAllByRole('button', { name: 'Reintentar' })[0]!.click());
      await screen.findByRole('textbox', { name: 'Coordenada A1' });
    });
  });
});

describe('mobile authoriser', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    givenLoggedIn({ factores: [2] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const pending = businessError('pagarProductoCVResponse', '25', 'Autorización pendiente.');

  it('sends the push on Autorizar, polls every second through 25 and goes to the voucher with PassCoop', async () => {
    const server = stubServer({ [AUZ]: [push], [PAG]: [pending, pending, paid] });
    const { location } = renderChallenge();
    expect(screen.getByRole('heading', { level: 1, name: 'Autoriza tu pago' })).toBeVisible();
    expect(server.calls).toHaveLength(0);
    act(() => autorizar().click());
    await screen.findByText('Revisa tu celular y aprueba la solicitud en la app PassCoop.');
    expect(server.sent(AUZ)).toEqual([expect.objectContaining({ autorizarPagoProductoCVRequest: expect.objectContaining({ factor: 2 }) })]);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(server.sent(PAG)).toHaveLength(1);
    expect(screen.getByRole('timer').textContent).toMatch(/^(2:00|1:59)$/);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(server.sent(PAG)).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(location()).toBe('/pagoexpress/successvoucher/trx-1?categoria=PM&factor=PassCoop'));
    expect(server.sent(PAG)[0]).toEqual({
      pagarProductoCVRequest: expect.objectContaining({ factor: 2, numeroCuenta: '000031245601' }),
    });
    expect(server.sent(PAG)[0]).not.toHaveProperty('pagarProductoCVRequest.desafio');
  });

  it('stops polling when the screen goes away', async () => {
    const server = stubServer({ [AUZ]: [push], [PAG]: [pending] });
    const { unmount } = renderChallenge();
    act(() => autorizar().click());
    await screen.findByText('Revisa tu celular y aprueba la solicitud en la app PassCoop.');
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    const polls = server.sent(PAG).length;
    expect(polls).toBeGreaterThanOrEqual(3);
    unmount();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.sent(PAG)).toHaveLength(polls);
  });

  it.each([
    ['8', 'La autorización desde tu celular ha sido rechazada, reintenta…', true],
    ['7', 'PassCoop está bloqueada. Regístrate nuevamente en la app.', false],
    ['50', 'Código de confirmación inválido.', true],
    ['4242', 'En este momento nuestro servicio no se encuentra disponible. Vuelve a intentarlo más tarde.', true],
  ])('a final %s stops polling and shows %j', async (code, message, retryable) => {
    const server = stubServer({ [AUZ]: [push], [PAG]: [pending, businessError('pagarProductoCVResponse', code)] });
    renderChallenge();
    act(() => autorizar().click());
    const dialog = await screen.findByRole('dialog', { name: 'No pudimos autorizar tu pago' }, { timeout: 3_000 });
    expect(dialog.textContent).toContain(message);
    const polls = server.sent(PAG).length;
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(server.sent(PAG)).toHaveLength(polls);
    expect(screen.queryAllByRole('button', { name: 'Reintentar' }).length > 0).toBe(retryable);
    if (retryable) {
      act(() => screen.getAllByRole('button', { name: 'Reintentar' })[0]!.click());
      expect(autorizar()).toBeVisible();
    }
  });

  it('the countdown ending stops the polling and shows the timeout message', async () => {
    const server = stubServer({ [AUZ]: [push], [PAG]: [pending] });
    renderChallenge();
    act(() => autorizar().click());
    await screen.findByRole('timer');
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Tienes un tiempo limitado para autorizar, inténtalo nuevamente.');
    const polls = server.sent(PAG).length;
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(server.sent(PAG)).toHaveLength(polls);
  });

  it('a blinking network is polled through; three failures in a row go to the error page', async () => {
    const down = new TypeError('Failed to fetch');
    stubServer({ [AUZ]: [push], [PAG]: [down, pending, down, down, down] });
    const { location } = renderChallenge();
    act(() => autorizar().click());
    await screen.findByRole('timer');
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(location()).toBe('/pagoexpress/PM/coopmethodpaychallenge');
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });
});

describe('factor switch and the app download page', () => {
  it('switches between the two factors when the payer has both', async () => {
    const user = userEvent.setup();
    givenLoggedIn({ factores: [1, 2] });
    stubServer({ [AUZ]: [challenge()] });
    renderChallenge();
    expect(screen.getByRole('heading', { level: 2, name: 'Autorizador móvil PassCoop' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Usar tarjeta de coordenadas' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Ingresa tus coordenadas' })).toBeVisible();
    await screen.findByRole('textbox', { name: 'Coordenada B3' });
    await user.click(screen.getByRole('button', { name: 'Usar autorizador móvil' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Autorizador móvil PassCoop' })).toBeVisible();
    expect(useAppStore.getState().payment.selectedFactor).toBe(2);
  });

  it('a payer without factors gets the app download page, with store links', () => {
    givenLoggedIn({ payerRut: '19191919-K', factores: [] });
    renderAt('/pagoexpress/PM/SecurityFactor');
    expect(screen.getByRole('heading', { level: 2, name: 'Descarga la app Cooperativa' })).toBeVisible();
    const links = screen.getAllByRole('link', { name: /Descargar en/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'https://apps.apple.com/cl/search?term=Cooperativa',
      'https://play.google.com/store/search?q=Cooperativa&c=apps',
    ]);
  });
});

describe('security-factor screen', () => {
  it('shows the account summary with the payer as holder and the member as beneficiary', async () => {
    givenLoggedIn({ payerRut: '19191919-K', factores: [1] });
    stubServer({ [AUZ]: [challenge()] });
    renderAt('/pagoexpress/PM/SecurityFactor');
    expect(screen.getByRole('heading', { level: 1, name: 'Autoriza tu pago' })).toBeVisible();
    const row = (label: string) => screen.getByText(label).nextElementSibling?.textContent;
    expect(row('Monto a pagar')).toBe('$156.300');
    expect(row('RUT titular de la cuenta')).toBe('19.191.919-K');
    expect(row('Tipo de cuenta')).toBe('Cuenta Vista');
    expect(row('Número de cuenta')).toBe('****5601');
    expect(row('RUT beneficiario')).toBe('11.111.111-1');
    await screen.findByRole('textbox', { name: 'Coordenada B3' });
  });

  it('without a login for the payment, points back to the login', () => {
    useAppStore.setState({ config: { parameters: {}, isAuthenticated: true } });
    renderAt('/pagoexpress/PM/SecurityFactor');
    expect(screen.getByRole('link', { name: 'Ingresar con mi clave' }).getAttribute('href')).toBe('/pagoexpress/PM/coopmethodpay');
  });
});
