import { FAMILIES } from '@pago/domain/family-codes';
import { STEP_TWO_TITLES } from '@pago/domain/families';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CARDS_SUBTITLE, CREDITS_SUBTITLE, SAVINGS_SUBTITLE } from '../features/products/step-two/texts';
import { arrivalFor } from './arrivals';

// What each screen's page shows before any JavaScript runs (the build draws it) and while the screen's code loads.

const ID = '0123456789abcdef0123456789abcdef';

function arrive(url: string) {
  const arrival = arrivalFor(url);
  render(<MemoryRouter>{arrival}</MemoryRouter>);
  return arrival;
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
const loader = () => screen.getByRole('status').textContent;

describe("the screens' arrivals", () => {
  it.each(['/pagoonline/stepone', '/pagoexpress/stepone'])('%s: step 1, its heading and the products loading', (url) => {
    arrive(url);
    expect(screen.getByRole('navigation', { name: 'Pasos del pago' }).querySelector('[aria-current="step"]')?.textContent).toContain('Tu(s) producto(s)');
    expect(heading()).toBe('Selecciona el producto que deseas pagar');
    expect(loader()).toBe('Cargando tus productos…');
  });

  it.each(FAMILIES)("step 2 of %s: its family's title and subtitle", (family) => {
    arrive(`/pagoexpress/steptwo/${family}`);
    expect(heading()).toBe(STEP_TWO_TITLES[family]);
    const subtitle = { PC: CREDITS_SUBTITLE, HI: CREDITS_SUBTITLE, PM: CREDITS_SUBTITLE, CP: null, TC: CARDS_SUBTITLE, AH: SAVINGS_SUBTITLE }[family];
    if (subtitle) expect(screen.getByText(subtitle)).toBeVisible();
    else expect(screen.queryByText(/^Selecciona/)).toBeNull();
  });

  it.each(FAMILIES)('step 3 of %s', (family) => {
    arrive(`/pagoexpress/stepthree/${family}`);
    expect(heading()).toBe('Selecciona tu medio de pago');
  });

  it('the success voucher: its heading and words, the voucher loading, and no action yet', () => {
    arrive(`/pagoexpress/successvoucher/${ID}?factor=WEBPAY`);
    expect(heading()).toBe('Pago exitoso');
    expect(screen.getByText('Tu pago se realizó correctamente. Este es el detalle de tu transacción.')).toBeVisible();
    expect(loader()).toBe('Cargando tu comprobante…');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it("Webpay's return arrives as the screen of its outcome", () => {
    arrive(`/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${ID}`);
    expect(heading()).toBe('Pago exitoso');
  });

  it.each([
    `estado=rechazado&idTransaccion=${ID}`,
    `estado=pendiente&idTransaccion=${ID}`,
    // What the return page refuses (the error page) never arrives as a success.
    `estado=aprobado&idTransaccion=${ID.toUpperCase()}`,
    `estado=aprobado&idTransaccion=${ID}&x=1`,
    'estado=aprobado',
  ])('webpayresult?%s has no arrival of its own: the loader', (query) => {
    expect(arrivalFor(`/pagoexpress/webpayresult?${query}`)).toBeNull();
  });

  it('the public verification: its heading while the server is asked', () => {
    arrive('/comprobante/verificar/ABCD-EFGH-IJKL-MNOP-QRST');
    expect(heading()).toBe('Verificación de comprobante');
    expect(loader()).toBe('Verificando el comprobante…');
  });

  it.each([
    '/',
    '/pagoexpress/maintenance',
    // A family that does not exist is not found: no step's heading.
    '/pagoexpress/steptwo/XX',
    '/pagoexpress/stepthree/pc',
    '/pagoonline/StepOne',
    '/pagoexpress/successvoucher',
    '/nada',
  ])('%s has none', (url) => {
    expect(arrivalFor(url)).toBeNull();
  });
});
