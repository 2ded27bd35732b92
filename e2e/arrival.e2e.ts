import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from './support/browser';
import { setUpProduct } from './support/journeys';

// What a member's phone paints from the HTML alone, before any JavaScript has run (decision 037): each screen's
// page arrives with the screen's heading and the words that do not depend on the session, so the largest text is on
// screen at the first paint. Drawn in a browser with JavaScript off, which paints exactly that.
describe('each page before its JavaScript runs', () => {
  const { product, browser } = setUpProduct();
  const ID = '0123456789abcdef0123456789abcdef';
  let context: BrowserContext | null = null;

  afterEach(async () => {
    await context?.close();
    context = null;
  });

  async function withoutJavaScript(path: string, viewport = PHONE): Promise<Page> {
    context = await browser().newContext({ viewport, locale: 'es-CL', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${product().baseUrl}${path}`);
    return page;
  }

  const pageAt = async (path: string) => (await fetch(`${product().baseUrl}${path}`)).text();
  /** The scripts and the modules a page names, without their nonces. */
  const codeTags = (html: string) =>
    (html.match(/<script\b[^>]*>|<link rel="modulepreload"[^>]*>/g) ?? []).map((tag) => tag.replace(/ nonce="[^"]*"/, ''));
  const heading = (page: Page) => page.locator('h1').allTextContents();
  const loader = (page: Page) => page.getByRole('status').textContent();

  it.each([
    ['/pagoonline/stepone', 'Selecciona el producto que deseas pagar', 'Cargando tus productos…', null],
    ['/pagoexpress/steptwo/AH', 'Cuenta de Ahorro', 'Cargando…', 'Selecciona la cuenta y el monto que quieres depositar'],
    ['/pagoexpress/steptwo/PC', 'Crédito de Consumo', 'Cargando…', 'Selecciona las cuotas a pagar de cada producto'],
    ['/pagoexpress/stepthree/TC', 'Selecciona tu medio de pago', 'Cargando…', null],
    [`/pagoexpress/successvoucher/${ID}`, 'Pago exitoso', 'Cargando tu comprobante…', 'Tu pago se realizó correctamente. Este es el detalle de tu transacción.'],
    // Webpay's return, approved: the voucher it becomes.
    [`/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${ID}`, 'Pago exitoso', 'Cargando tu comprobante…', null],
    ['/comprobante/verificar/ABCD-EFGH-IJKL-MNOP-QRST', 'Verificación de comprobante', 'Verificando el comprobante…', null],
  ])('%s paints its heading %j', async (path, title, loading, text) => {
    const page = await withoutJavaScript(path);
    expect(await heading(page)).toEqual([title]);
    expect(await loader(page)).toBe(loading);
    if (text) expect(await page.getByText(text).isVisible()).toBe(true);
    // The page names no more code than the home does (the entry, which waits for the first paint); the code its
    // screen runs is listed on #root for the entry to fetch then.
    const html = await pageAt(path);
    expect(codeTags(html)).toEqual(codeTags(await pageAt('/')));
    expect(html).toMatch(/<div id="root" data-shell="screen" data-code="assets\/[^"]+\.js( assets\/[^"]+\.js)*" inert>/);
  });

  it("a return the page would not read as approved does not arrive as a success, nor does a screen that depends on the session or a family that does not exist", async () => {
    for (const path of [
      `/pagoexpress/webpayresult?estado=rechazado&idTransaccion=${ID}`,
      `/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${ID.toUpperCase()}`,
      `/pagoexpress/webpayresult?estado=aprobado&idTransaccion=${ID}&estado=aprobado`,
      '/pagoexpress/PC/SecurityFactor',
      '/pagoexpress/stepthree/XX',
    ]) {
      const page = await withoutJavaScript(path);
      expect(await heading(page), path).toEqual([]);
      expect(await loader(page), path).toBe('Cargando…');
      await context?.close();
    }
  });

  it('looks right at both sizes', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      for (const [name, path] of [
        ['arrival-step-two', '/pagoexpress/steptwo/PC'],
        ['arrival-voucher', `/pagoexpress/successvoucher/${ID}`],
      ] as const) {
        const page = await withoutJavaScript(path, viewport);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, name);
        await context?.close();
      }
    }
  });
});
