import { GENERIC_SERVICE_MESSAGE } from '@pago/domain/errors';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { REMEMBERED_RUT_KEY, useAppStore } from '../../lib/app-store';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { LocationDisplay } from '../../test/location-display';
import { HomePage } from './home-page';
import { handToHome } from '../../lib/typed-before-start';

function renderHome(path = '/') {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/pagoexpress" element={<HomePage />} />
        <Route path="*" element={null} />
      </Routes>
      <LocationDisplay />
    </MemoryRouter>,
  );
  return {
    field: screen.getByRole('textbox', { name: 'RUT' }),
    button: screen.getByRole('button', { name: 'Ingresar' }),
    location: () => screen.getByTestId('location').textContent,
  };
}

const parametros = (values: Record<string, string>) =>
  jsonResponse({
    consultarParametrosResponse: {
      listaParametros: { parametro: Object.entries(values).map(([nombre, valor]) => ({ nombre, valor })) },
    },
  });

const businessError = (codigo: string, descripcion: string) =>
  jsonResponse({ consultarParametrosResponse: { error: { errores: { detalleError: { codigo, descripcion } } } } });

beforeEach(() => {
  useAppStore.getState().reset();
});

describe('home', () => {
  it('shows the title, the prompt and the RUT field as the specification says', () => {
    const { field, button } = renderHome();
    expect(screen.getByRole('heading', { level: 1, name: 'Pago Online' })).toBeVisible();
    expect(screen.getByText('Ingresa tu RUT para comenzar')).toBeVisible();
    expect(field.getAttribute('placeholder')).toBe('12345678-9');
    expect(field.getAttribute('maxlength')).toBeNull();
    expect(field.getAttribute('inputmode')).toBe('text');
    expect(screen.getByRole('checkbox', { name: 'Recordar mi RUT' })).toBeVisible();
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('formats the RUT with dots and a dash while it is typed', async () => {
    const user = userEvent.setup();
    const { field } = renderHome();
    await user.type(field, '123456785');
    expect((field as HTMLInputElement).value).toBe('12.345.678-5');
    await user.clear(field);
    await user.type(field, '7.654.321-k');
    expect((field as HTMLInputElement).value).toBe('7.654.321-K');
  });

  it("shows 'Rut inválido' for a wrong check digit, tied to the field", async () => {
    const user = userEvent.setup();
    const { field, button } = renderHome();
    await user.type(field, '123456789');
    const error = screen.getByText('Rut inválido');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(error.id);
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows no error on an empty field and enables 'Ingresar' only once the RUT is valid", async () => {
    const user = userEvent.setup();
    const { field, button } = renderHome();
    expect(screen.queryByText('Rut inválido')).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBeNull();

    await user.type(field, '1234567');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.type(field, '8');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.type(field, '5');
    expect((field as HTMLInputElement).value).toBe('12.345.678-5');
    expect(screen.queryByText('Rut inválido')).toBeNull();
    expect((button as HTMLButtonElement).disabled).toBe(false);

    await user.type(field, '{Backspace}');
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks for the parameters with the canonical RUT while a loader shows, then opens step 1', async () => {
    let answer!: (response: Response) => void;
    const fetch = stubFetch(new Promise<Response>((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    const { field, location } = renderHome();

    await user.type(field, '12.345.678-5{Enter}');

    expect(screen.getByRole('status').textContent).toContain('Cargando…');
    expect(fetch.mock.calls[0]?.[0]).toBe('/prod/parametro/consultar');
    expect(fetch.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(sentBody(fetch)).toEqual({
      consultarParametrosRequest: { userId: '12345678-5', canalLlamada: 'PGEX', tipo: 'PE' },
    });

    answer(parametros({ Mantencion: '0', CierreDiario: '0', PC: '1', sessionTimeOut: '10' }));
    await waitFor(() => expect(location()).toBe('/pagoonline/stepone'));
    const state = useAppStore.getState();
    expect(state.customer.rut).toBe('12345678-5');
    expect(state.config.parameters).toEqual({ Mantencion: '0', CierreDiario: '0', PC: '1', sessionTimeOut: '10' });
    expect(state.config.isAuthenticated).toBe(false);
  });

  it('goes to maintenance when Mantencion is 1, before looking at the daily closing', async () => {
    stubFetch(parametros({ Mantencion: '1', CierreDiario: '1' }));
    const user = userEvent.setup();
    const { field, button, location } = renderHome();
    await user.type(field, '123456785');
    await user.click(button);
    await waitFor(() => expect(location()).toBe('/pagoexpress/maintenance'));
  });

  it('goes to the daily closing when CierreDiario is 1', async () => {
    stubFetch(parametros({ Mantencion: '0', CierreDiario: '1' }));
    const user = userEvent.setup();
    const { field, button, location } = renderHome();
    await user.type(field, '123456785');
    await user.click(button);
    await waitFor(() => expect(location()).toBe('/pagoexpress/cierre'));
  });

  it.each([
    ['a network failure', new TypeError('Failed to fetch')],
    ['HTTP 500', jsonResponse({ consultarParametrosResponse: {} }, 500)],
    [
      'HTTP 400',
      jsonResponse(
        { consultarParametrosResponse: { error: { errores: { detalleError: { codigo: '400', descripcion: 'x' } } } } },
        400,
      ),
    ],
    ['an answer that is not JSON', new Response('<html>', { status: 200 })],
    ['an answer of another call', jsonResponse({ otraRespuesta: {} })],
  ])('goes to the error page on %s', async (_label, answer) => {
    stubFetch(answer);
    const user = userEvent.setup();
    const { field, button, location } = renderHome();
    await user.type(field, '123456785');
    await user.click(button);
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });

  it("shows a known code's description on customError", async () => {
    stubFetch(businessError('503', 'Descripción enviada por el servidor.'));
    const user = userEvent.setup();
    const { field, button, location } = renderHome();
    await user.type(field, '123456785');
    await user.click(button);
    await waitFor(() => expect(location()).toBe('/pagoexpress/customError'));
    expect(useAppStore.getState().customError.message).toBe('Descripción enviada por el servidor.');
  });

  it('shows the generic message on customError for a code outside the catalogue', async () => {
    stubFetch(businessError('777777', 'Texto interno que el socio no debe ver.'));
    const user = userEvent.setup();
    const { field, button, location } = renderHome();
    await user.type(field, '123456785');
    await user.click(button);
    await waitFor(() => expect(location()).toBe('/pagoexpress/customError'));
    expect(useAppStore.getState().customError.message).toBe(GENERIC_SERVICE_MESSAGE);
  });

  it("remembers the RUT with 'Recordar mi RUT' and fills it in next time", async () => {
    stubFetch(parametros({ Mantencion: '0', CierreDiario: '0' }));
    const user = userEvent.setup();
    const first = renderHome();
    await user.type(first.field, '123456785');
    await user.click(screen.getByRole('checkbox', { name: 'Recordar mi RUT' }));
    await user.click(first.button);
    await waitFor(() => expect(first.location()).toBe('/pagoonline/stepone'));
    expect(localStorage.getItem(REMEMBERED_RUT_KEY)).toBe('12345678-5');

    document.body.innerHTML = '';
    const second = renderHome();
    expect((second.field as HTMLInputElement).value).toBe('12.345.678-5');
    expect((screen.getByRole('checkbox', { name: 'Recordar mi RUT' }) as HTMLInputElement).checked).toBe(true);
    expect((second.button as HTMLButtonElement).disabled).toBe(false);
  });

  it('forgets a remembered RUT when the member enters without the box ticked', async () => {
    localStorage.setItem(REMEMBERED_RUT_KEY, '12345678-5');
    stubFetch(parametros({}));
    const user = userEvent.setup();
    const { button, location } = renderHome();
    await user.click(screen.getByRole('checkbox', { name: 'Recordar mi RUT' }));
    await user.click(button);
    await waitFor(() => expect(location()).toBe('/pagoonline/stepone'));
    expect(localStorage.getItem(REMEMBERED_RUT_KEY)).toBeNull();
  });

  it('fills in the RUT a refusal page hands over for a new payment, once, without remembering it', () => {
    handToHome('13579246-2', false);
    const first = renderHome();
    expect((first.field as HTMLInputElement).value).toBe('13.579.246-2');
    expect((screen.getByRole('checkbox', { name: 'Recordar mi RUT' }) as HTMLInputElement).checked).toBe(false);
    document.body.innerHTML = '';
    expect((renderHome().field as HTMLInputElement).value).toBe('');
  });

  it('clears the app state on entry', () => {
    useAppStore.setState({
      customer: { rut: '12345678-5', rememberMe: false, token: 'secreto' },
      config: { parameters: { Mantencion: '0' }, isAuthenticated: true },
      customError: { message: 'antiguo' },
    });
    renderHome('/pagoexpress');
    const state = useAppStore.getState();
    expect(state.customer).toEqual({ rut: '', rememberMe: false, token: '' });
    expect(state.config).toEqual({ parameters: {}, isAuthenticated: false });
    expect(state.customError.message).toBe('');
  });
});
