import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { renderVoucherScreen, samplePago } from './voucher-test-fixtures';

const pago = samplePago();
const voucher = () => jsonResponse({ consultarPagoResponse: { listaPago: { pago } } });
const error = (codigo: string, descripcion: string) =>
  jsonResponse({ consultarPagoResponse: { error: { errores: { detalleError: { codigo, descripcion } } } } });

const renderVoucher = renderVoucherScreen;

beforeEach(() => {
  useAppStore.getState().reset();
  useAppStore.setState({
    customer: { rut: '11111111-1', rememberMe: false, token: 'token-de-sesion' },
    config: { parameters: { sessionTimeOut: '5' }, isAuthenticated: true },
    selection: { family: 'PM', productsToPay: [{ productNumber: '630055667788', installment: ['9|156300|20261210|A|0'] }], amount: 156_300 },
    payment: { idTrx: 'trx-1', amount: 156_300 },
  });
});

/**
 * The bytes of a saved Blob, read the way a page reads one. Under jsdom, Node's `Response.blob()` builds the Blob
 * with the page's (jsdom's) constructor, which has no arrayBuffer(); FileReader reads it.
 */
function blobBytes(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/** The value (dd) of the voucher's term (dt) `term`. */
function detail(term: string): string | null | undefined {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('success voucher', () => {
  it('reads the voucher with call 7 and shows the paid summary', async () => {
    const fetch = stubFetch(voucher());
    renderVoucher();
    // Until call 7 answers, what the page arrived with: the voucher's heading and the loader (voucher-arrival.tsx).
    expect(screen.getByRole('heading', { level: 1, name: 'Pago exitoso' })).toBeVisible();
    expect(screen.getByRole('status').textContent).toContain('Cargando tu comprobante…');
    expect(await screen.findAllByText('$156.300')).toHaveLength(2);
    expect(screen.queryByText('Cargando tu comprobante…')).toBeNull();
    expect(sentBody(fetch)).toEqual({
      consultarPagoRequest: { userId: '11111111-1', canalLlamada: 'PGEX', idTransaccion: 'trx-1', token: 'token-de-sesion' },
    });
    expect(screen.getByText('Crédito MYPE')).toBeVisible();
    expect(screen.getByText('Nº ****7788')).toBeVisible();
    expect(screen.getByText('Cuota Nº 9')).toBeVisible();
    expect(screen.getByText('557248')).toBeVisible();
    expect(screen.getByText('21/11/2026 13:00:42')).toBeVisible();
    expect(detail('Medio de pago')).toBe('Débito');
    // The member's RUT, masked as in the PDF, the e-mail and the verification page.
    expect(detail('RUT del socio')).toBe('**.***.111-1');
    expect(screen.queryByText('11.111.111-1')).toBeNull();
    expect(screen.getByText('Cuenta Vista ****5601')).toBeVisible();
    expect(detail('Cantidad de cuotas')).toBe('1');
    expect(detail('Nº de autorización')).toBe('557248');
    expect(screen.getByText('Tarjeta de coordenadas')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });

  it("'Nuevo Pago' keeps the member's RUT, forgets the payment and the session, and opens step 1", async () => {
    const user = userEvent.setup();
    stubFetch(voucher());
    const { location } = renderVoucher();
    await user.click(await screen.findByRole('button', { name: 'Nuevo Pago' }));
    expect(location()).toBe('/pagoonline/stepone');
    const state = useAppStore.getState();
    expect(state.customer.rut).toBe('11111111-1');
    expect(state.customer.token).toBe('');
    expect(state.config.parameters).toEqual({ sessionTimeOut: '5' });
    expect(state.payment).toEqual({ idTrx: '', amount: 0 });
    expect(state.selection).toEqual({ family: null, productsToPay: [], amount: 0 });
    expect(state.products).toEqual([]);
  });

  it.each([
    ['509', '/pagoexpress/customError'],
    ['516', '/pagoexpress/customError'],
    ['476', '/pagoexpress/error'],
  ])('answer %s leads to %s', async (code, path) => {
    stubFetch(error(code, 'Tu pago aún se está procesando.'));
    const { location } = renderVoucher();
    await waitFor(() => expect(location()).toBe(path));
    if (path.endsWith('customError')) expect(useAppStore.getState().customError.message).toBe('Tu pago aún se está procesando.');
    expect(screen.queryByRole('heading', { name: 'Pago exitoso' })).toBeNull();
  });

  it('a failed call goes to the error page', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const { location } = renderVoucher();
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
  });

  it("without a session shows no 'Pago exitoso' and makes no call", () => {
    useAppStore.getState().reset();
    const fetch = stubFetch();
    renderVoucher();
    expect(screen.getByRole('heading', { level: 1, name: 'Comprobante no disponible' })).toBeVisible();
    expect(screen.queryByText('Pago exitoso')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('voucher actions', () => {
  const ID = '0123456789abcdef0123456789abcdef';
  const withId = () => jsonResponse({ consultarPagoResponse: { listaPago: { pago: { ...pago, idTransaccion: ID } } } });
  const pdf = () =>
    new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
      status: 200,
      headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="download.pdf"' },
    });

  // jsdom has no object URLs: they are given to it, and nothing else is replaced. The link's click is watched from
  // the document, and not followed, since jsdom cannot.
  const clicked: HTMLAnchorElement[] = [];
  const onClick = (event: MouseEvent) => {
    if (event.target instanceof HTMLAnchorElement && event.target.download) {
      clicked.push(event.target);
      event.preventDefault();
    }
  };
  beforeEach(() => {
    clicked.length = 0;
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost/voucher');
    URL.revokeObjectURL = vi.fn();
    document.addEventListener('click', onClick);
  });
  afterEach(() => {
    document.removeEventListener('click', onClick);
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it("'Descargar' fetches the PDF of the session's transaction and saves it as download.pdf", async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(withId(), pdf());
    renderVoucher(`/pagoexpress/successvoucher/${ID}?categoria=PM&factor=TCOO`);
    await user.click(await screen.findByRole('button', { name: 'Descargar' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(fetch.mock.calls[1]?.[0]).toBe('/api/comprobante/pdf');
    expect(sentBody(fetch, 1)).toEqual({ token: 'token-de-sesion', idTransaccion: ID });
    const saved = vi.mocked(URL.createObjectURL).mock.calls[0]?.[0] as Blob;
    expect(saved.type).toBe('application/pdf');
    expect(await blobBytes(saved)).toEqual(new Uint8Array([0x25, 0x50, 0x44, 0x46]));
    expect(clicked[0]?.download).toBe('download.pdf');
    expect(clicked[0]?.href).toBe('blob:http://localhost/voucher');
    expect(screen.getAllByRole('status').map((s) => s.textContent)).not.toContain(
      'No pudimos descargar tu comprobante. Vuelve a intentarlo.',
    );
  });

  it("a failed download says so, saves nothing, and 'Descargar' again works", async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(withId(), jsonResponse({ comprobantePdfResponse: {} }, 404), new TypeError('Failed to fetch'), pdf());
    renderVoucher(`/pagoexpress/successvoucher/${ID}`);
    const descargar = await screen.findByRole('button', { name: 'Descargar' });
    await user.click(descargar);
    expect(await screen.findByText('No pudimos descargar tu comprobante. Vuelve a intentarlo.')).toBeVisible();
    await user.click(descargar);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3));
    expect(await screen.findByText('No pudimos descargar tu comprobante. Vuelve a intentarlo.')).toBeVisible();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    await user.click(descargar);
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(screen.queryByText('No pudimos descargar tu comprobante. Vuelve a intentarlo.')).toBeNull();
  });

  it("an answer that is not a PDF is not saved as one", async () => {
    const user = userEvent.setup();
    stubFetch(withId(), new Response('<html></html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    renderVoucher(`/pagoexpress/successvoucher/${ID}`);
    await user.click(await screen.findByRole('button', { name: 'Descargar' }));
    expect(await screen.findByText('No pudimos descargar tu comprobante. Vuelve a intentarlo.')).toBeVisible();
    expect(clicked).toHaveLength(0);
  });

  it("'Imprimir' opens the browser's print dialog", async () => {
    const user = userEvent.setup();
    // jsdom cannot print.
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    stubFetch(withId());
    renderVoucher(`/pagoexpress/successvoucher/${ID}`);
    await user.click(await screen.findByRole('button', { name: 'Imprimir' }));
    expect(print).toHaveBeenCalledOnce();
    print.mockRestore();
  });

  it("'Enviar por email' sends the voucher with the session's RUT and token and shows the masked address", async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(
      withId(),
      jsonResponse({
        enviarComprobantePagoResponse: {
          codigo: '200',
          descripcion: 'Su comprobante ha sido enviado con éxito al correo cam*********@example.cl',
        },
      }),
    );
    renderVoucher(`/pagoexpress/successvoucher/${ID}`);
    await user.click(await screen.findByRole('button', { name: 'Enviar por email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar comprobante por email' });
    await user.type(screen.getByRole('textbox', { name: 'Correo electrónico' }), 'camila.rojas@example.cl');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() =>
      expect(dialog.querySelector('[role=status]')?.textContent).toBe(
        'Su comprobante ha sido enviado con éxito al correo cam*********@example.cl',
      ),
    );
    expect(sentBody(fetch, 1)).toEqual({
      enviarComprobantePagoRequest: {
        userId: '11111111-1',
        canalLlamada: 'PGEX',
        token: 'token-de-sesion',
        rut: '11111111-1',
        correo: 'camila.rojas@example.cl',
      },
    });
  });
});
