import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { EmailVoucherModal } from './email-voucher-modal';

const RUT = '11111111-1';
const TOKEN = 'token-de-sesion';
const FAILED = 'No se ha podido realizar el envío de su comprobante, vuelva a intentarlo nuevamente';
const SENT = 'Su comprobante ha sido enviado con éxito al correo cam*********@example.cl';

const sent = (descripcion = SENT) => jsonResponse({ enviarComprobantePagoResponse: { codigo: '200', descripcion } });
const refused = (codigo: string, status = 200) =>
  jsonResponse(
    { enviarComprobantePagoResponse: { error: { errores: { detalleError: { codigo, descripcion: 'Error' } } } } },
    status,
  );

/** The modal behind a button, as the voucher opens it. */
function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Enviar por email
      </button>
      <EmailVoucherModal open={open} onOpenChange={setOpen} rut={RUT} token={TOKEN} />
    </>
  );
}

async function openModal() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <Harness />
    </QueryClientProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Enviar por email' }));
  const dialog = await screen.findByRole('dialog', { name: 'Enviar comprobante por email' });
  const field = screen.getByRole('textbox', { name: 'Correo electrónico' });
  const enviar = () => screen.getByRole('button', { name: /^(Enviar|Reintentar)$/ });
  return { user, dialog, field, enviar };
}

describe('voucher e-mail modal', () => {
  it("starts empty, says 'Correo inválido' while the address is not one, and enables 'Enviar' only when it is", async () => {
    const fetch = stubFetch();
    const { user, field, enviar } = await openModal();
    expect((field as HTMLInputElement).value).toBe('');
    expect(screen.queryByText('Correo inválido')).toBeNull();
    expect(enviar()).toHaveProperty('disabled', true);

    await user.type(field, 'camila.rojas@example');
    const error = screen.getByText('Correo inválido');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    expect(enviar()).toHaveProperty('disabled', true);

    await user.type(field, '.cl');
    expect(screen.queryByText('Correo inválido')).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(field.getAttribute('aria-describedby')).toBeNull();
    expect(enviar()).toHaveProperty('disabled', false);

    // Specification §5: a TLD of 2 to 63 letters, a local part of at most 64 characters.
    await user.clear(field);
    await user.type(field, 'camila@example.c');
    expect(screen.getByText('Correo inválido')).toBeVisible();
    await user.clear(field);
    await user.type(field, `${'a'.repeat(65)}@example.cl`);
    expect(screen.getByText('Correo inválido')).toBeVisible();
    expect(enviar()).toHaveProperty('disabled', true);

    // Emptied again: no message, nothing to send.
    await user.clear(field);
    expect(screen.queryByText('Correo inválido')).toBeNull();
    await user.keyboard('{Enter}');
    expect(fetch).not.toHaveBeenCalled();
  });

  it("sends call 8 with the RUT and token as Basic authorisation, and shows the server's message with the masked address", async () => {
    const fetch = stubFetch(sent());
    const { user, field, enviar } = await openModal();
    await user.type(field, ' camila.rojas@example.cl ');
    await user.click(enviar());

    const status = screen.getByRole('status');
    await waitFor(() => expect(status.textContent).toBe(SENT));
    const [path, init] = fetch.mock.calls[0] ?? [];
    expect(path).toBe('/prod/notificaciones/enviar');
    expect(sentBody(fetch)).toEqual({
      enviarComprobantePagoRequest: { userId: RUT, canalLlamada: 'PGEX', token: TOKEN, rut: RUT, correo: 'camila.rojas@example.cl' },
    });
    expect((init?.headers as Record<string, string>)['Authorization']).toBe(`Basic ${btoa(`${RUT}:${TOKEN}`)}`);

    // Sent: nothing left to send; 'Aceptar' closes, and a new opening starts empty.
    expect(screen.queryByRole('textbox', { name: 'Correo electrónico' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enviar' })).toBeNull();
    const aceptar = screen.getByRole('button', { name: 'Aceptar' });
    expect(document.activeElement).toBe(aceptar);
    await user.click(aceptar);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Enviar por email' }));
    expect((screen.getByRole('textbox', { name: 'Correo electrónico' }) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it.each([
    ['a mail server failure (502)', () => refused('502')],
    ['the per-session limit (HTTP 429, code 514)', () => refused('514', 429)],
    ['a network failure', () => new TypeError('Failed to fetch')],
    ['a server fault (HTTP 500)', () => jsonResponse({}, 500)],
  ])("shows the failure message after %s, and 'Reintentar' sends again", async (_case, failure) => {
    const fetch = stubFetch(failure(), sent());
    const { user, field, enviar } = await openModal();
    await user.type(field, 'camila.rojas@example.cl');
    await user.click(enviar());

    const status = screen.getByRole('status');
    await waitFor(() => expect(status.textContent).toBe(FAILED));
    // The address stays, ready to be sent again.
    expect((field as HTMLInputElement).value).toBe('camila.rojas@example.cl');
    const retry = screen.getByRole('button', { name: 'Reintentar' });
    expect(retry).toHaveProperty('disabled', false);
    await user.click(retry);

    await waitFor(() => expect(status.textContent).toBe(SENT));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(sentBody(fetch, 1)).toEqual(sentBody(fetch, 0));
  });

  it('sends once however often the button is pressed while the call is under way', async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = stubFetch(new Promise<Response>((resolve) => (answer = resolve)));
    const { user, field, enviar } = await openModal();
    await user.type(field, 'camila.rojas@example.cl');
    await user.click(enviar());
    const busy = screen.getByRole('button', { name: 'Enviando…' });
    await user.click(busy);
    await user.click(busy);
    answer(sent());
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(SENT));
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('changing the address after a failure clears the message and offers Enviar again', async () => {
    stubFetch(refused('502'));
    const { user, field } = await openModal();
    await user.type(field, 'camila.rojas@example.cl');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(FAILED));
    await user.type(field, 'x');
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.getByRole('button', { name: 'Enviar' })).toBeVisible();
  });
});
