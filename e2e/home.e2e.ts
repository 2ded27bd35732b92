import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { DESKTOP, expectAccessible, expectLoggedError, PHONE, screenshot } from './support/browser';
import { setUpProduct, waitUntilLive } from './support/journeys';

// A member's first screen: the RUT, the parameters call, and where each answer leads.
describe('home and parameters', () => {
  const { product, open } = setUpProduct();
  let page: Page;

  afterEach(async () => {
    await product().setParameter('Mantencion', '0');
    await product().setParameter('CierreDiario', '0');
  });

  const rutField = () => page.getByRole('textbox', { name: 'RUT' });
  const enter = () => page.getByRole('button', { name: 'Ingresar' });

  async function openHome(viewport = PHONE) {
    page = await open(viewport);
    await page.goto(`${product().baseUrl}/`);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Pago Online' }).isVisible()).toBe(true);
    await waitUntilLive(page);
  }

  it('formats the RUT while typing and enables Ingresar only when it is valid', async () => {
    await openHome();
    await expect.poll(() => page.getByText('Ingresa tu RUT para comenzar').isVisible()).toBe(true);
    expect(await rutField().getAttribute('placeholder')).toBe('12345678-9');
    expect(await enter().isDisabled()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'home-empty');

    await rutField().pressSequentially('111111111');
    expect(await rutField().inputValue()).toBe('11.111.111-1');
    expect(await enter().isEnabled()).toBe(true);
    expect(await page.getByText('Rut inválido').count()).toBe(0);
    await screenshot(page, 'home-valid');
  });

  it('cleans a pasted RUT with spaces, dots and a dash before measuring it', async () => {
    await openHome();
    await rutField().focus();
    // What a paste does: the whole text arrives at once, as typed text would not.
    await page.keyboard.insertText('  11.111.111 - 1  ');
    expect(await rutField().inputValue()).toBe('11.111.111-1');
    expect(await enter().isEnabled()).toBe(true);
    await rutField().fill('');
    await page.keyboard.insertText(' 9 876 543 3 ');
    expect(await rutField().inputValue()).toBe('9.876.543-3');
  });

  it('accepts a lower-case k and drops leading zeros', async () => {
    await openHome();
    await rutField().pressSequentially('19191919k');
    expect(await rutField().inputValue()).toBe('19.191.919-K');
    expect(await enter().isEnabled()).toBe(true);
    await rutField().fill('');
    await rutField().pressSequentially('0123456785');
    expect(await rutField().inputValue()).toBe('12.345.678-5');
    expect(await enter().isEnabled()).toBe(true);
  });

  it('shows Rut inválido for a wrong check digit and keeps Ingresar disabled', async () => {
    await openHome();
    await rutField().pressSequentially('111111112');
    expect(await rutField().inputValue()).toBe('11.111.111-2');
    await expect.poll(() => page.getByText('Rut inválido').isVisible()).toBe(true);
    expect(await enter().isDisabled()).toBe(true);
    expect(await rutField().getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await screenshot(page, 'home-invalid');
  });

  it('takes a valid RUT to step 1', async () => {
    await openHome(DESKTOP);
    await screenshot(page, 'home-empty');
    await rutField().pressSequentially('111111111');
    await enter().click();
    await page.waitForURL('**/pagoonline/stepone');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Selecciona el producto que deseas pagar' }).isVisible())
      .toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'stepone');
  });

  it('sends the member to maintenance when Mantencion is 1', async () => {
    await product().setParameter('Mantencion', '1');
    for (const viewport of [PHONE, DESKTOP]) {
      await openHome(viewport);
      await rutField().pressSequentially('123456785');
      await enter().click();
      await page.waitForURL('**/pagoexpress/maintenance');
      await expect.poll(() => page.getByRole('heading', { name: 'Sitio Web en Mantención' }).isVisible()).toBe(true);
      await expectAccessible(page);
      await screenshot(page, 'maintenance');
      await page.context().close();
    }
  });

  it('sends the member to the daily-closing page when CierreDiario is 1', async () => {
    await product().setParameter('CierreDiario', '1');
    await openHome();
    await rutField().pressSequentially('123456785');
    await enter().click();
    await page.waitForURL('**/pagoexpress/cierre');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/cierre/i);
    await expectAccessible(page);
    await screenshot(page, 'cierre');
  });

  it('sends the member to the error page when the parameters call fails', async () => {
    await openHome();
    // The network between the phone and the server is outside the product: cut it for this one call.
    await page.route('**/prod/parametro/consultar', (route) => route.abort('connectionfailed'));
    await rutField().pressSequentially('123456785');
    await enter().click();
    await page.waitForURL('**/pagoexpress/error');
    await expect.poll(() => page.getByRole('heading', { name: '¡Lo sentimos!' }).isVisible()).toBe(true);
    expectLoggedError(page, /ERR_CONNECTION_FAILED.*\/prod\/parametro\/consultar/);
    await expectAccessible(page);
    await screenshot(page, 'error');
  });

  it('keeps unauthenticated visitors out of the payment steps', async () => {
    page = await open();
    for (const path of ['/pagoexpress/steptwo/PC', '/pagoexpress/stepthree/HI', '/pagoexpress/PC/coopmethodpay', '/pagoexpress/bloquedUser']) {
      await page.goto(`${product().baseUrl}${path}`);
      await page.waitForURL(`${product().baseUrl}/`);
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Pago Online' }).isVisible()).toBe(true);
    }
  });

  it('serves the SPA shell on deep links with the strict content security policy', async () => {
    const res = await fetch(`${product().baseUrl}/pagoexpress/maintenance`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/<script>(?!\s*<\/script>)/);
  });
});
