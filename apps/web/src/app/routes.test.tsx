import { GENERIC_SERVICE_MESSAGE, PAYMENT_FAILED_MESSAGE } from '@pago/domain/errors';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../lib/app-store';
import { stubFetch } from '../test/fetch-stub';
import { LocationDisplay } from '../test/location-display';
import { AppRoutes } from './routes';

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <LocationDisplay />
    </MemoryRouter>,
  );
  return { location: () => screen.getByTestId('location').textContent };
}

const detalle = { montoPendiente: 85_430, pagoMinimo: 20_000, codigoEstadoCuota: 'A', diasMora: 0, medioPago: '' } as const;
const credit = (tipoFamiliaProducto: 'PC' | 'HI', numeroProducto: string) => ({
  tipoFamiliaProducto,
  nombreFamiliaProducto: tipoFamiliaProducto === 'PC' ? 'Crédito de Consumo' : 'Crédito Hipotecario',
  numeroProducto,
  listaDetalleProductos: [{ ...detalle, numeroCuota: 1, fechaVencimiento: '20300612' }],
  permiteAbono: false,
  permiteMultipleAbono: false,
  montoMinimoAbonoMultiple: 0,
  fechaVigenciaAbono: '',
});

/** An authenticated session as step 1 leaves it: a token and the products of more than one family. */
function signIn() {
  useAppStore.setState({
    customer: { rut: '12345678-5', rememberMe: false, token: 'token-de-sesion' },
    config: { parameters: {}, isAuthenticated: true },
    products: [credit('PC', '410012345678'), credit('HI', '610011112222')],
    // What step 2 hands to step 3 (step 3 sends the member back to step 2 without it).
    selection: {
      family: 'HI',
      productsToPay: [{ productNumber: '610011112222', installment: ['1|85430|20300612|A|0'] }],
      amount: 85_430,
    },
  });
}

async function heading(name: string) {
  const h1 = await screen.findByRole('heading', { level: 1, name });
  expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  return h1;
}

beforeEach(() => {
  useAppStore.getState().reset();
});

describe('routes for every session (specification §2)', () => {
  it.each([
    ['/', 'Pago Online'],
    ['/pagoexpress', 'Pago Online'],
    ['/pagoonline', 'Pago Online'],
    ['/pagoexpress/maintenance', 'Sitio Web en Mantención'],
    ['/pagoexpress/cierre', 'Cierre diario'],
    ['/pagoexpress/error', '¡Lo sentimos!'],
    ['/pagoexpress/customError', '¡Lo sentimos!'],
    ['/pagoexpress/ErrorLogin', 'No es posible realizar el depósito'],
    // Without the session that paid it, the voucher is not shown (nothing is asked of the server).
    ['/pagoexpress/successvoucher/ABC123', 'Comprobante no disponible'],
    // The card provider's screens (webpayresult, webpayfinal, cancelvoucher) need their query or the card path's
    // state: see 'the card provider's screens' below.
  ])('%s shows %j inside the page landmarks', async (path, title) => {
    const { location } = renderAt(path);
    await heading(title);
    expect(location()).toBe(path);
    expect(screen.getByRole('banner')).toBeVisible();
    expect(screen.getByRole('main')).toBeVisible();
    expect(screen.getByRole('contentinfo')).toBeVisible();
  });

  it.each(['/pagoexpress/stepone', '/pagoonline/stepone'])('%s shows step 1 with the RUT', async (path) => {
    // Without a session step 1 lists the products (captcha, then call 2): keep that call pending.
    stubFetch(new Promise<Response>(() => {}));
    useAppStore.setState({ customer: { rut: '12345678-5', rememberMe: false, token: '' } });
    renderAt(path);
    await heading('Selecciona el producto que deseas pagar');
    expect(screen.getByText('12.345.678-5')).toBeVisible();
    const current = screen.getByRole('listitem', { current: 'step' });
    expect(current.textContent).toContain('Tu(s) producto(s)');
    const steps = screen.getAllByRole('listitem');
    expect(steps).toHaveLength(3);
    ['Paso 1: Tu(s) producto(s)', 'Paso 2: Monto a Pagar', 'Paso 3: Medio de Pago'].forEach((label, index) =>
      expect(steps[index]?.textContent).toContain(label),
    );
  });

  it('step 1 without a RUT goes back to the home', async () => {
    const { location } = renderAt('/pagoonline/stepone');
    await heading('Pago Online');
    expect(location()).toBe('/');
  });
});

// Card path (features/card): the return from Webpay is routed by its URL, the cancel voucher by the method of payment.
describe("the card provider's screens", () => {
  const ID = '0123456789abcdef0123456789abcdef';

  it('webpayresult with the return URL of a rejection shows the cancel voucher inside the page landmarks', async () => {
    // The tab that went to Webpay, with its session.
    useAppStore.setState({ methodPay: 'webpaymethodpay', customer: { rut: '11111111-1', rememberMe: false, token: 'token-de-sesion' } });
    const { location } = renderAt(`/pagoexpress/webpayresult?estado=rechazado&idTransaccion=${ID}`);
    await heading('Pago rechazado');
    expect(location()).toBe(`/pagoexpress/cancelvoucher/${ID}`);
    expect(screen.getByRole('banner')).toBeVisible();
    expect(screen.getByRole('main')).toBeVisible();
    expect(screen.getByRole('contentinfo')).toBeVisible();
  });

  it('webpayresult without the return URL of the payment host goes to the error page (specification §5)', async () => {
    const { location } = renderAt('/pagoexpress/webpayresult');
    await heading('¡Lo sentimos!');
    expect(location()).toBe('/pagoexpress/error');
  });

  it('webpayfinal of a partial approval is open to every session', async () => {
    const { location } = renderAt(`/pagoexpress/webpayfinal?idTransaccion=${ID}`);
    await heading('Pago parcialmente aprobado');
    expect(location()).toBe('/pagoexpress/webpayfinal');
  });
});

const AUTHENTICATED_ONLY = [
  ['/pagoexpress/steptwo/PC', 'Crédito de Consumo'],
  ['/pagoexpress/steptwo/TC', 'Tarjetas de Crédito'],
  ['/pagoexpress/steptwo/AH', 'Cuenta de Ahorro'],
  ['/pagoexpress/stepthree/HI', 'Selecciona tu medio de pago'],
  ['/pagoexpress/PC/coopmethodpay', 'Paga con tu Cuenta Vista'],
  ['/pagoexpress/CP/webpaymethodpay', 'Pago con Webpay'],
  ['/pagoexpress/PM/SecurityFactor', 'Autoriza tu pago'],
  ['/pagoexpress/PC/coopmethodpaychallenge', 'Ingresa tus coordenadas'],
  ['/pagoexpress/bloquedUser', 'Tu clave ha sido bloqueada'],
  ['/pagoexpress/cancelMessage', '¡Pago Anulado!'],
  ['/pagoexpress/InsufficientFunds', 'Saldo insuficiente'],
] as const;

describe('authenticated-only routes', () => {
  it.each(AUTHENTICATED_ONLY)('%s shows %j to an authenticated session', async (path, title) => {
    signIn();
    const { location } = renderAt(path);
    await heading(title);
    expect(location()).toBe(path);
  });

  it.each(AUTHENTICATED_ONLY)('%s sends an unauthenticated session to /', async (path) => {
    const { location } = renderAt(path);
    await heading('Pago Online');
    expect(location()).toBe('/');
  });

  it.each(['/pagoexpress/bloquedUser', '/pagoexpress/cancelMessage'])(
    '%s clears the app state on entry and stays shown (specification §4)',
    async (path) => {
      signIn();
      const { location } = renderAt(path);
      await waitFor(() => expect(useAppStore.getState().config.isAuthenticated).toBe(false));
      expect(useAppStore.getState().customer.token).toBe('');
      expect(location()).toBe(path);
      expect(screen.getByRole('heading', { level: 1 }).textContent).not.toBe('Pago Online');
    },
  );

  it('InsufficientFunds keeps the state: its way back to step 3 needs the selection', async () => {
    signIn();
    renderAt('/pagoexpress/InsufficientFunds');
    await heading('Saldo insuficiente');
    expect(useAppStore.getState().config.isAuthenticated).toBe(true);
  });

  it('step 2 shows the subtitle of its kind of product', async () => {
    signIn();
    renderAt('/pagoexpress/steptwo/HI');
    await heading('Crédito Hipotecario');
    expect(screen.getByText('Selecciona las cuotas a pagar de cada producto')).toBeVisible();
    expect(screen.getByRole('listitem', { current: 'step' }).textContent).toContain('Monto a Pagar');
  });
});

const UNAUTHENTICATED_ONLY = [
  '/pagoexpress/SecurityFactor',
  '/pagoexpress/infomessage',
  '/pagoexpress/informativemessage',
] as const;

describe('unauthenticated-only routes', () => {
  it('/pagoexpress/SecurityFactor is open to an unauthenticated session', async () => {
    const { location } = renderAt('/pagoexpress/SecurityFactor');
    await heading('Autoriza tu pago');
    expect(location()).toBe('/pagoexpress/SecurityFactor');
  });

  it.each(['/pagoexpress/infomessage', '/pagoexpress/informativemessage'])(
    '%s shows the notice the product list left',
    async (path) => {
      useAppStore.setState({ infoMessage: { codigo: '47501', descripcion: 'Tus productos se están actualizando.' } });
      renderAt(path);
      await heading('Información importante');
      expect(screen.getByText('Tus productos se están actualizando.')).toBeVisible();
    },
  );

  it('an info screen without a notice goes back to the home', async () => {
    const { location } = renderAt('/pagoexpress/infomessage');
    await heading('Pago Online');
    expect(location()).toBe('/');
  });

  it.each(UNAUTHENTICATED_ONLY)('%s sends an authenticated session to step 1', async (path) => {
    signIn();
    const { location } = renderAt(path);
    await heading('Selecciona el producto que deseas pagar');
    expect(location()).toBe('/pagoonline/stepone');
  });
});

describe('what is not a route', () => {
  it.each([
    '/pagoexpress/steptwo/XX',
    '/pagoexpress/steptwo/pc',
    '/pagoexpress/stepthree/ZZ',
    '/pagoexpress/XX/coopmethodpay',
    '/pagoexpress/AB/webpaymethodpay',
    '/pagoexpress/QQ/SecurityFactor',
    '/pagoexpress/PC/coopmethodpaychallengex',
    '/pagoexpress/PC/otromethodpay',
    '/pagoexpress/errorlogin',
    '/pagoexpress/CustomError',
    '/pagoexpress/Maintenance',
    '/pagoexpress/bloqueduser',
    '/pagoexpress/insufficientfunds',
    '/pagoexpress/securityfactor',
    '/PagoExpress',
    '/pagoexpress/successvoucher',
    '/nada',
  ])('%s is not found, with a link home', async (path) => {
    renderAt(path);
    await heading('Página no encontrada');
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });

  it('a wrong category is not found for an authenticated session too', async () => {
    signIn();
    renderAt('/pagoexpress/steptwo/XX');
    await heading('Página no encontrada');
  });
});

describe('error pages clear the app state (specification §4)', () => {
  it.each([
    ['/pagoexpress/maintenance', 'Sitio Web en Mantención'],
    ['/pagoexpress/cierre', 'Cierre diario'],
    ['/pagoexpress/error', '¡Lo sentimos!'],
  ])('%s', async (path, title) => {
    signIn();
    renderAt(path);
    await heading(title);
    await waitFor(() => expect(useAppStore.getState().config.isAuthenticated).toBe(false));
    expect(useAppStore.getState().customer.rut).toBe('');
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });

  it('the error page shows the general failure message', async () => {
    renderAt('/pagoexpress/error');
    await heading('¡Lo sentimos!');
    expect(screen.getByText(PAYMENT_FAILED_MESSAGE)).toBeVisible();
  });

  it('customError shows the stored message, then clears the state', async () => {
    signIn();
    useAppStore.getState().setCustomError('Cliente sin productos disponibles para pago');
    renderAt('/pagoexpress/customError');
    await heading('¡Lo sentimos!');
    expect(screen.getByText('Cliente sin productos disponibles para pago')).toBeVisible();
    await waitFor(() => expect(useAppStore.getState().customError.message).toBe(''));
    expect(useAppStore.getState().config.isAuthenticated).toBe(false);
    // The message stays on screen after the reset.
    expect(screen.getByText('Cliente sin productos disponibles para pago')).toBeVisible();
  });

  it('customError without a stored message shows the generic one', async () => {
    renderAt('/pagoexpress/customError');
    await heading('¡Lo sentimos!');
    expect(screen.getByText(GENERIC_SERVICE_MESSAGE)).toBeVisible();
  });
});
