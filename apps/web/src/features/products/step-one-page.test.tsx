import { GENERIC_SERVICE_MESSAGE, NO_PRODUCTS_MESSAGE } from '@pago/domain/errors';
import type { Producto } from '@pago/domain/products';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { smallChallenge } from '../../lib/captcha-test-challenge';
import { jsonResponse, sentBody, serveClosedFamilies, stubFetch } from '../../test/fetch-stub';
import { LocationDisplay } from '../../test/location-display';
import { CLOSED_HOURS_TITLE } from './availability';
import { CLOSED_NOW, StepOnePage } from './step-one-page';
import { LOADING_PRODUCTS } from './step-arrivals';
import { everyFamily, product, detalle, SEED_PARAMETERS } from './test-builders';

const RUT = '11111111-1';

function enterStepOne(rut = RUT, parameters: Record<string, string> = SEED_PARAMETERS) {
  useAppStore.getState().setCustomer({ rut, rememberMe: false });
  useAppStore.getState().setParameters(parameters);
  render(
    <MemoryRouter initialEntries={['/', '/pagoonline/stepone']} initialIndex={1}>
      <Routes>
        <Route path="/pagoonline/stepone" element={<StepOnePage />} />
        <Route path="*" element={null} />
      </Routes>
      <LocationDisplay />
    </MemoryRouter>,
  );
  return { location: () => screen.getByTestId('location').textContent };
}

const listed = (listaProductos: Producto[], token = 'token-de-sesion') =>
  jsonResponse({ listarDetalleProductosResponse: { token, listaProductos } });

const listError = (codigo: string, descripcion: string, status = 200) =>
  jsonResponse({ listarDetalleProductosResponse: { error: { errores: { detalleError: { codigo, descripcion } } } } }, status);

/** fetch answers the captcha challenge, then the product list with `answer`. */
async function serve(answer: Response | Error) {
  return stubFetch(jsonResponse(await smallChallenge()), answer);
}

const familyButton = (name: string) => screen.findByRole('button', { name });

beforeEach(() => {
  useAppStore.getState().reset();
});

describe('step 1: the product list', () => {
  it('solves the captcha and lists the products with its token while a loader shows', async () => {
    let answer!: (response: Response) => void;
    const fetch = stubFetch(jsonResponse(await smallChallenge()), new Promise<Response>((resolve) => (answer = resolve)));
    enterStepOne();

    expect(screen.getByRole('heading', { level: 1, name: 'Selecciona el producto que deseas pagar' })).toBeVisible();
    expect(screen.getByRole('status').textContent).toContain(LOADING_PRODUCTS);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));

    expect(fetch.mock.calls[0]?.[0]).toBe('/api/captcha/challenge');
    const [url, init] = fetch.mock.calls[1] ?? [];
    expect(url).toBe('/prod/producto/listar');
    expect(sentBody(fetch, 1)).toEqual({
      listarDetalleProductosRequest: { userId: RUT, canalLlamada: 'PGEX', rut: RUT },
    });
    const authorization = new Headers(init?.headers).get('Authorization') ?? '';
    const captcha = JSON.parse(atob(authorization)) as { challenge: unknown; solution: { counter: number } };
    expect(captcha.challenge).toBeDefined();
    expect(typeof captcha.solution.counter).toBe('number');

    answer(listed(everyFamily()));
    await familyButton('Crédito de Consumo');
    const state = useAppStore.getState();
    expect(state.customer.token).toBe('token-de-sesion');
    expect(state.config.isAuthenticated).toBe(true);
    expect(state.products).toHaveLength(6);
  });

  it('shows one button per family, the PAC/PAT note and the way back to the cooperative', async () => {
    await serve(listed(everyFamily()));
    enterStepOne();
    await familyButton('Crédito de Consumo');
    const buttons = within(screen.getByRole('list', { name: 'Tus productos' })).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual([
      'Crédito de Consumo',
      'Cuotas de Participación',
      'Crédito Hipotecario',
      'Tarjeta de Crédito',
      'Crédito MYPE',
      'Cuenta de Ahorro',
    ]);
    expect(buttons.every((b) => b.querySelector('svg[aria-hidden="true"]'))).toBe(true);
    expect(screen.getByRole('note', { name: '' }).textContent).toContain('evita cobros dobles');
    const back = screen.getByRole('link', { name: 'Volver a Cooperativa' });
    expect(back.textContent).toBe('<\u00a0Volver a Cooperativa');
    // PRODUCT_SITE_URL, by default the sandbox's stand-in for the cooperative's site.
    expect(back.getAttribute('href')).toBe('/sandbox/sitio');
    expect(screen.queryByText(CLOSED_HOURS_TITLE)).toBeNull();
  });

  it('leaves out the families switched off', async () => {
    await serve(listed(everyFamily()));
    enterStepOne(RUT, { ...SEED_PARAMETERS, TC: '0', CP: '0' });
    await familyButton('Crédito de Consumo');
    expect(screen.queryByRole('button', { name: 'Tarjeta de Crédito' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cuotas de Participación' })).toBeNull();
    expect(useAppStore.getState().products.map((p) => p.tipoFamiliaProducto)).toEqual(['PC', 'HI', 'PM', 'AH']);
  });

  it('goes straight to step 2 when one family is left, replacing step 1 in the history', async () => {
    await serve(listed([product('AH', '700012345678', detalle(0, '20300601'))]));
    const { location } = enterStepOne('12345678-5');
    await waitFor(() => expect(location()).toBe('/pagoexpress/steptwo/AH'));
    expect(useAppStore.getState().config.isAuthenticated).toBe(true);
  });

  it.each<[string, Producto[], Record<string, string>]>([
    ['no products', [], SEED_PARAMETERS],
    ['only families switched off', everyFamily().filter((p) => p.tipoFamiliaProducto === 'TC'), { ...SEED_PARAMETERS, TC: '0' }],
  ])("shows 'Cliente sin productos disponibles para pago' with %s", async (_label, products, parameters) => {
    await serve(listed(products));
    const { location } = enterStepOne('7654321-6', parameters);
    await waitFor(() => expect(location()).toBe('/pagoexpress/customError'));
    expect(useAppStore.getState().customError.message).toBe(NO_PRODUCTS_MESSAGE);
    expect(useAppStore.getState().config.isAuthenticated).toBe(false);
  });

  it.each([
    ['47501', '/pagoexpress/infomessage'],
    ['47883', '/pagoexpress/infomessage'],
    ['41027', '/pagoexpress/infomessage'],
    ['465', '/pagoexpress/informativemessage'],
    ['492', '/pagoexpress/informativemessage'],
  ])('keeps the notice %s and opens %s', async (codigo, path) => {
    await serve(listError(codigo, 'Aviso para el socio.'));
    const { location } = enterStepOne('18765432-7');
    await waitFor(() => expect(location()).toBe(path));
    expect(useAppStore.getState().infoMessage).toEqual({ codigo, descripcion: 'Aviso para el socio.' });
  });

  it.each([
    ['a known code', listError('482', 'No pudimos verificar que eres una persona.'), 'No pudimos verificar que eres una persona.'],
    ['HTTP 429 with code 514', listError('514', 'Has realizado demasiadas solicitudes.', 429), 'Has realizado demasiadas solicitudes.'],
    ['a code outside the catalogue', listError('777777', 'Texto interno.'), GENERIC_SERVICE_MESSAGE],
  ])('shows %s on customError', async (_label, answer, message) => {
    await serve(answer);
    const { location } = enterStepOne();
    await waitFor(() => expect(location()).toBe('/pagoexpress/customError'));
    expect(useAppStore.getState().customError.message).toBe(message);
  });

  it.each<[string, () => Promise<ReturnType<typeof stubFetch>>]>([
    ['the challenge cannot be fetched', async () => stubFetch(new TypeError('Failed to fetch'))],
    ['the list cannot be reached', () => serve(new TypeError('Failed to fetch'))],
    ['the list answers HTTP 500', () => serve(listError('500', 'Error', 500))],
    ['the list answers HTTP 400', () => serve(listError('400', 'Solicitud inválida.', 400))],
    ['the list answers something else', () => serve(jsonResponse({ listarDetalleProductosResponse: { token: 'x' } }))],
  ])('goes to the error page when %s', async (_label, stub) => {
    await stub();
    const { location } = enterStepOne();
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });

  it('shows the families again from the stored session, without a new call', () => {
    const fetch = stubFetch();
    useAppStore.getState().setSession({ token: 'token-guardado', products: everyFamily() });
    enterStepOne();
    expect(screen.getByRole('button', { name: 'Crédito Hipotecario' })).toBeVisible();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the families the server says are closed, in one banner, whatever the phone’s clock says', async () => {
    // The phone's clock at 23:00 in Santiago; the server's has only the mortgage closed.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-06-12T03:00:00Z'));
    try {
      stubFetch();
      serveClosedFamilies(['HI']);
      useAppStore.getState().setSession({ token: 'token-guardado', products: everyFamily() });
      enterStepOne();
      expect(await screen.findByText(CLOSED_HOURS_TITLE)).toBeTruthy();
      expect(screen.getByText('A esta hora no se puede pagar Crédito Hipotecario. Podrás pagar desde las 02:00 hrs.')).toBeTruthy();
      // The closed family is shown closed, without repeating the hours; the others stay a way forward.
      const mortgage = screen.getByRole('button', { name: /Crédito Hipotecario/ }) as HTMLButtonElement;
      expect(mortgage.disabled).toBe(true);
      expect(mortgage.textContent).toBe(`Crédito Hipotecario${CLOSED_NOW}`);
      expect(screen.getAllByText(/02:00/)).toHaveLength(1);
      expect((screen.getByRole('button', { name: 'Crédito de Consumo' }) as HTMLButtonElement).disabled).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a member whose only family is closed on step 1, with the banner, instead of a step 2 that would fail', async () => {
    const fetch = await serve(listed([product('AH', '700012345678', detalle(0, '20300601'))]));
    serveClosedFamilies(['PC', 'CP', 'HI', 'TC', 'PM', 'AH']);
    const { location } = enterStepOne('12345678-5');
    expect(await screen.findByText('A esta hora no se puede pagar Cuenta de Ahorro. Podrás pagar desde las 02:00 hrs.')).toBeTruthy();
    expect(location()).toBe('/pagoonline/stepone');
    expect((screen.getByRole('button', { name: /Cuenta de Ahorro/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('takes a member whose only family is open straight to its step 2, once the server has said so', async () => {
    await serve(listed([product('AH', '700012345678', detalle(0, '20300601'))]));
    const { location } = enterStepOne('12345678-5');
    await waitFor(() => expect(location()).toBe('/pagoexpress/steptwo/AH'));
  });
});

describe('step 1: choosing a family', () => {
  beforeEach(() => {
    useAppStore.getState().setSession({ token: 'token-guardado', products: everyFamily() });
  });

  it('opens step 2 of the family pressed', async () => {
    const user = userEvent.setup();
    const { location } = enterStepOne();
    await user.click(screen.getByRole('button', { name: 'Crédito Hipotecario' }));
    expect(location()).toBe('/pagoexpress/steptwo/HI');
  });

  it("offers partial payment first on 'Crédito de Consumo', then 'Continuar' opens its step 2", async () => {
    const user = userEvent.setup();
    const { location } = enterStepOne();
    await user.click(screen.getByRole('button', { name: 'Crédito de Consumo' }));
    const dialog = await screen.findByRole('dialog', { name: '¡Buena noticia!' });
    expect(dialog.textContent).toContain('pagar una parte del monto pendiente');
    expect(location()).toBe('/pagoonline/stepone');
    await user.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    expect(location()).toBe('/pagoexpress/steptwo/PC');
  });

  it('lets the member close the offer and stay', async () => {
    const user = userEvent.setup();
    const { location } = enterStepOne();
    const pc = screen.getByRole('button', { name: 'Crédito de Consumo' });
    await user.click(pc);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location()).toBe('/pagoonline/stepone');
    expect(document.activeElement).toBe(pc);

    await user.click(pc);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('goes straight to step 2 of the consumer credit without the offer', async () => {
    useAppStore.getState().setSession({
      token: 'token-guardado',
      products: everyFamily().map((p) => ({ ...p, permiteAbono: false })),
    });
    const user = userEvent.setup();
    const { location } = enterStepOne();
    await user.click(screen.getByRole('button', { name: 'Crédito de Consumo' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(location()).toBe('/pagoexpress/steptwo/PC');
  });
});
