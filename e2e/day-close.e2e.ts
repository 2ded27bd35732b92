import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, PHONE, screenshot, type Viewport } from './support/browser';
import { businessNoon, E2E_ADMIN_TOKEN, freePort, startProduct, type Product } from './support/product';
import { listar, oldestOf, payOwnAccount, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from '../apps/api/test/reliability/flows';
import { fetchTarget } from '../apps/api/test/reliability/http';

// The day's close in the console (decision 049): a member pays by own account and by card, the day ends, one finance
// operator proposes the close, another approves it in a second browser, and the screen says who closed it. Then the
// card payment is reversed through four eyes (decision 050), and the closed day reads reopened by it.
const DESKTOP: Viewport = { width: 1280, height: 900 };
const TABLET: Viewport = { width: 820, height: 1180 };
const CLAVES = { finanzas: 'finanzas-demo', finanzas2: 'finanzas2-demo', auditor: 'auditor-demo' } as const;

describe('the day close in the console', () => {
  let product: Product;
  let browser: Browser;
  let operatorOrigin = '';
  const contexts: BrowserContext[] = [];
  const errors = new WeakMap<Page, string[]>();
  let cardPayment = '';
  let closedDay = '';

  beforeAll(async () => {
    const adminPort = await freePort();
    operatorOrigin = `http://localhost:${adminPort}`;
    [product, browser] = await Promise.all([startProduct({ env: { ADMIN_PORT: String(adminPort), OPERATOR_BASE_URL: operatorOrigin } }), launchBrowser()]);
  }, 300_000);
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await product?.stop();
  });

  async function signIn(usuario: keyof typeof CLAVES): Promise<Page> {
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'es-CL', timezoneId: 'America/Santiago' });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const seen: string[] = [];
    errors.set(page, seen);
    page.on('pageerror', (error) => seen.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('favicon.ico')) seen.push(`${message.text()} (${message.location().url})`);
    });
    await page.goto(`${operatorOrigin}/operador/`);
    await page.getByRole('link', { name: 'Ingresar' }).click();
    await page.getByLabel('Usuario').fill(usuario);
    await page.getByLabel('Clave').fill(CLAVES[usuario]);
    await page.getByLabel('Código de verificación (segundo factor)').fill('123456');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inicio' }).waitFor();
    return page;
  }

  /** axe, no console error, and screenshots at 390, 820 and 1280 with nothing sticking out sideways. */
  async function look(page: Page, name: string): Promise<void> {
    expect(errors.get(page) ?? []).toEqual([]);
    await expectAccessible(page);
    for (const viewport of [PHONE, TABLET, DESKTOP]) {
      await page.setViewportSize(viewport);
      await screenshot(page, `console-${name}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
    }
    await page.setViewportSize(DESKTOP);
  }

  /** The close screen on the day the payments were made (today in Santiago: the console's date field). */
  async function openClose(page: Page, day: string): Promise<void> {
    await page.getByRole('link', { name: 'Cierre del día' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cierre del día' }).waitFor();
    await page.getByLabel('Día hábil').fill(day);
    await page.getByRole('region', { name: 'Pagos del día, las diferencias primero' }).waitFor();
  }

  it('is proposed by one finance operator and approved by another in a second browser, then shows who closed it', async () => {
    // Two payments today: an own-account one, and a card one whose credit the postings job sends to the core.
    const member = fetchTarget(product.baseUrl);
    const own = await listar(member, '11111111-1');
    await seleccionar(member, own.token, '11111111-1', [oldestOf(own.productos.find((p) => p.numeroProducto.endsWith('5678'))!, 1)]);
    await payOwnAccount(member, { token: own.token, memberRut: '11111111-1', payerRut: '11111111-1', clave: '1234' });
    const card = await listar(member, '9876543-3');
    const producto = [oldestOf(card.productos.find((p) => p.numeroProducto.endsWith('5431'))!, 1)];
    const { idTransaccion } = await seleccionar(member, card.token, '9876543-3', producto);
    const started = await startCard(member, { token: card.token, rut: '9876543-3' }, { idTransaccion, producto });
    expect(await postReturn(member, await useCardForm(product.webpayUrl, started.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Santiago' });
    cardPayment = idTransaccion;

    const maker = await signIn('finanzas');
    await openClose(maker, today);
    // While the day runs it cannot be closed; the credit reaches the core within seconds and the sides agree.
    await maker.getByText('Solo se cierra un día ya terminado.').waitFor();
    const agreeing = async () => {
      await maker.reload();
      await maker.getByLabel('Día hábil').fill(today);
      await maker.getByText(/^\d+ pagos · \d+ con diferencias$/).waitFor();
      return maker.getByRole('cell', { name: 'Cuadra', exact: true }).count();
    };
    await expect.poll(agreeing, { timeout: 30_000, interval: 2_000 }).toBe(2);
    await maker.getByText('2 pagos · 0 con diferencias').waitFor();
    await maker.getByText('Abierto: nadie ha firmado el cierre de este día.').waitFor();
    await look(maker, 'cierre-abierto');
    const href = await maker.getByRole('link', { name: 'Descargar CSV del cierre' }).getAttribute('href');
    const csv = await maker.request.get(`${operatorOrigin}${href}`);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toMatch(/^\ufefffecha,idTransaccion,familia,medio de pago,estado aquí/);

    // The day is over: business time moves to tomorrow's noon.
    await product.setBusinessTime(new Date(businessNoon().getTime() + 86_400_000));
    await maker.reload();
    await maker.getByLabel('Día hábil').fill(today);
    await maker.getByRole('button', { name: 'Proponer cierre' }).click();
    await maker.getByLabel('Motivo (queda en el registro de auditoría)').fill('Revisado contra la cartola de Transbank y el core');
    await maker.getByRole('dialog').getByRole('button', { name: 'Proponer cierre' }).click();
    await maker.getByText(/queda cerrado cuando otro operador de finanzas lo apruebe en Aprobaciones/).waitFor();
    await maker.getByText(/Fernanda Finanzas propuso cerrarlo el .*: espera la aprobación de otro operador de finanzas\./).waitFor();
    await look(maker, 'cierre-propuesto');
    // The maker's own proposal offers no approval to them.
    await maker.getByRole('link', { name: 'Aprobaciones' }).click();
    await maker.getByText('Su propuesta: la decide otro operador').waitFor();

    const checker = await signIn('finanzas2');
    await checker.getByRole('link', { name: 'Aprobaciones' }).click();
    const approve = checker.getByRole('button', { name: /^Aprobar Cierre del día \d{2}-\d{2}-\d{4} \(2 pagos, los tres lados coinciden\)/ });
    await approve.waitFor();
    await look(checker, 'aprobaciones-cierre');
    await approve.click();
    await checker.getByText(/Cierre del día .*: aprobado/).first().waitFor();

    await openClose(checker, today);
    await checker.getByText(/^Cerrado por Felipe Finanzas el .*, propuesto por Fernanda Finanzas\.$/).waitFor();
    expect(await checker.getByRole('button', { name: 'Proponer cierre' }).isDisabled()).toBe(true);
    await look(checker, 'cierre-cerrado');

    // An auditor reads the same close, and is offered no signature.
    const auditor = await signIn('auditor');
    await openClose(auditor, today);
    await auditor.getByText(/^Cerrado por Felipe Finanzas/).waitFor();
    expect(await auditor.getByRole('button', { name: 'Proponer cierre' }).count()).toBe(0);

    const reset = await fetch(`${product.baseUrl}/sandbox/reloj`, { method: 'POST', headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ instante: businessNoon().toISOString() }) });
    expect(reset.status).toBe(200);
    closedDay = today;
  }, 240_000);

  it('reverses the card payment when a second finance operator approves, and the closed day reads reopened by it', async () => {
    expect(cardPayment).not.toBe('');
    const maker = await signIn('finanzas');
    await maker.goto(`${operatorOrigin}/operador/transacciones/${cardPayment}`);
    await maker.getByRole('button', { name: 'Anular pago' }).click();
    const dialog = maker.getByRole('dialog');
    await dialog.getByLabel('Motivo (queda en el registro de auditoría)').fill('El socio pagó el producto equivocado');
    await dialog.getByRole('button', { name: 'Proponer anulación' }).click();
    await maker.getByText('Anulación propuesta: se hace cuando otro operador de finanzas la apruebe en Aprobaciones.').waitFor();
    await look(maker, 'anulacion-propuesta');

    const checker = await signIn('finanzas2');
    await checker.getByRole('link', { name: 'Aprobaciones' }).click();
    const approve = checker.getByRole('button', { name: new RegExp(`^Aprobar Anulación del pago ${cardPayment}`) });
    await approve.waitFor();
    await approve.click();
    await checker.getByText(/^Anulación del pago .*: aprobado/).first().waitFor();

    // The core undid the credit and Webpay gave the charge back: the transaction says so, in words.
    await checker.goto(`${operatorOrigin}/operador/transacciones/${cardPayment}`);
    const reversal = checker.getByRole('region', { name: 'Anulación del pago' });
    await reversal.getByText('Anulado: el dinero volvió al socio y las cuotas se deben de nuevo').waitFor();
    await reversal.getByText('El socio pagó el producto equivocado').waitFor();
    expect(await checker.getByRole('button', { name: 'Anular pago' }).count()).toBe(0);
    await look(checker, 'anulacion-hecha');

    // The day was closed with the payment applied; the reversal reopened it, with its reason.
    await openClose(checker, closedDay);
    await checker.getByText(/^Reabierto el .*Lo había cerrado Felipe Finanzas/).waitFor();
    await look(checker, 'cierre-reabierto');
  }, 180_000);
});
