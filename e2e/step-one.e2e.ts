import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBothSizes, DESKTOP, expectAccessible, PHONE, screenshot, type Viewport } from './support/browser';
import { enterRut, reachStepOne, setUpProduct } from './support/journeys';
import { businessNoon } from './support/product';

const FAMILIES = [
  'Crédito de Consumo',
  'Cuotas de Participación',
  'Crédito Hipotecario',
  'Tarjeta de Crédito',
  'Crédito MYPE',
  'Cuenta de Ahorro',
];

// Step 1: the invisible captcha, the product list (call 2) and where each answer leads.
describe('step 1: the member’s products', () => {
  const { product, open } = setUpProduct();
  let page: Page;

  afterEach(async () => {
    await product().setParameter('TC', '1');
    await product().setBusinessTime(businessNoon());
  });

  const heading = () => page.getByRole('heading', { level: 1, name: 'Selecciona el producto que deseas pagar' });
  const familyList = () => page.getByRole('list', { name: 'Tus productos' });
  const family = (name: string) => familyList().getByRole('button', { name });

  async function enter(rutDigits: string, viewport: Viewport = PHONE) {
    page = await open(viewport);
    await enterRut(page, rutDigits);
  }

  async function seeFamilies() {
    await page.waitForURL('**/pagoonline/stepone');
    await expect.poll(() => family('Crédito de Consumo').isVisible()).toBe(true);
  }

  it('shows 11.111.111-1 the six families, the PAC/PAT note and the way back, listed with a solved captcha', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const listings: { authorization: string | null }[] = [];
      let workers = 0;
      page = await open(viewport);
      page.on('worker', () => workers++);
      page.on('request', (request) => {
        if (request.url().endsWith('/prod/producto/listar')) listings.push({ authorization: request.headers()['authorization'] ?? null });
      });
      await enterRut(page, '111111111');
      await seeFamilies();

      expect(await heading().isVisible()).toBe(true);
      expect(await familyList().getByRole('button').allTextContents()).toEqual(FAMILIES);
      expect(await page.getByText('12.345.678-5').count()).toBe(0);
      expect(await page.getByText('11.111.111-1').isVisible()).toBe(true);
      expect(await page.getByRole('note').filter({ hasText: 'PAC' }).textContent()).toContain('evita cobros dobles');
      const back = page.getByRole('link', { name: 'Volver a Cooperativa' });
      expect((await back.textContent())?.replace(/\u00a0/g, ' ')).toBe('< Volver a Cooperativa');
      // The business clock is at noon: no unavailable-hours banner.
      expect(await page.getByText('Fuera del horario de pago').count()).toBe(0);

      expect(listings).toHaveLength(1);
      const captcha = JSON.parse(Buffer.from(listings[0]?.authorization ?? '', 'base64').toString()) as {
        challenge?: unknown;
        solution?: { counter?: unknown };
      };
      expect(captcha.challenge).toBeDefined();
      expect(typeof captcha.solution?.counter).toBe('number');
      // The proof of work ran in web workers, off the main thread.
      expect(workers).toBeGreaterThan(0);

      await expectAccessible(page);
      await page.mouse.move(0, 0);
      await screenshot(page, 'stepone-families');
      if (viewport === DESKTOP) {
        // The way back leads to the cooperative's site (the sandbox's stand-in here), not to this home.
        await back.click();
        await page.waitForURL('**/sandbox/sitio');
        await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Sitio de Cooperativa' }).isVisible()).toBe(true);
      }
      await page.context().close();
    }
  });

  it('shows a loader while the captcha is solved and the products are listed', async () => {
    page = await open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/prod/producto/listar', async (route) => {
      await held;
      await route.continue();
    });
    await reachStepOne(page, '111111111');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Cargando tus productos');
    expect(await heading().isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'stepone-loading');
    release();
    await expect.poll(() => family('Crédito de Consumo').isVisible()).toBe(true);
  });

  it('names the closed family once at night by the server’s clock, while the phone’s says noon', async () => {
    // Nine hours past the business noon (21:00 or 22:00 in Santiago): only the mortgage has closed.
    await product().setBusinessTime(new Date(businessNoon().getTime() + 9 * 3_600_000));
    page = await open();
    await enterRut(page, '111111111');
    await seeFamilies();
    const banner = page.getByRole('note').filter({ hasText: 'Fuera del horario de pago' });
    await expect.poll(() => banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toBe('Fuera del horario de pagoA esta hora no se puede pagar Crédito Hipotecario. Podrás pagar desde las 02:00 hrs.');
    // The mortgage is shown closed and cannot be chosen; the others still can. The hours are said once, in the banner.
    const mortgage = familyList().getByRole('button', { name: /Crédito Hipotecario/ });
    expect(await mortgage.isDisabled()).toBe(true);
    expect(await mortgage.textContent()).toBe('Crédito HipotecarioNo disponible a esta hora');
    expect(await page.getByText(/02:00/).count()).toBe(1);
    expect(await family('Crédito de Consumo').isEnabled()).toBe(true);
    await checkBothSizes(page, 'stepone-night');
  });

  it('keeps 14.141.414-3, whose only family is closed at night, on step 1 with the banner naming it', async () => {
    // 23:00 or midnight in Santiago: every family is closed.
    await product().setBusinessTime(new Date(businessNoon().getTime() + 11 * 3_600_000));
    page = await open();
    await enterRut(page, '141414143');
    await page.waitForURL('**/pagoonline/stepone');
    const banner = page.getByRole('note').filter({ hasText: 'Fuera del horario de pago' });
    await expect.poll(() => banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toContain('A esta hora no se puede pagar Crédito MYPE.');
    expect(await familyList().getByRole('button', { name: /Crédito MYPE/ }).isDisabled()).toBe(true);
    expect(page.url()).toMatch(/\/pagoonline\/stepone$/);
    await checkBothSizes(page, 'stepone-closed-single');
  });

  it("offers partial payment on 'Crédito de Consumo' and 'Continuar' opens its step 2", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await enter('111111111', viewport);
      await seeFamilies();
      await family('Crédito de Consumo').click();
      const dialog = page.getByRole('dialog', { name: '¡Buena noticia!' });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.textContent()).toContain('pagar una parte del monto pendiente');
      await expectAccessible(page);
      await page.mouse.move(0, 0);
      await screenshot(page, 'stepone-offer');
      if (viewport === PHONE) {
        // It can be closed without choosing: the member stays on step 1.
        await dialog.getByRole('button', { name: 'Cerrar' }).click();
        await expect.poll(() => dialog.count()).toBe(0);
        expect(page.url()).toMatch(/\/pagoonline\/stepone$/);
        await family('Crédito de Consumo').click();
      }
      await dialog.getByRole('button', { name: 'Continuar' }).click();
      await page.waitForURL('**/pagoexpress/steptwo/PC');
      await page.context().close();
    }
  });

  it("'Crédito Hipotecario' goes straight to its step 2", async () => {
    await enter('111111111');
    await seeFamilies();
    await family('Crédito Hipotecario').click();
    await page.waitForURL('**/pagoexpress/steptwo/HI');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('takes 12.345.678-5, whose only family is savings, straight to step 2; Back does not loop through step 1', async () => {
    await enter('123456785');
    await page.waitForURL('**/pagoexpress/steptwo/AH');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Cuenta de Ahorro' }).isVisible()).toBe(true);
    await page.goBack();
    await page.waitForURL(`${product().baseUrl}/`);
  });

  it("tells 7.654.321-6 'Cliente sin productos disponibles para pago'", async () => {
    await enter('76543216');
    await page.waitForURL('**/pagoexpress/customError');
    await expect.poll(() => page.getByText('Cliente sin productos disponibles para pago').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'stepone-no-products');
  });

  it('sends 18.765.432-7 to the notice page and 10.203.040-0 to the informative message', async () => {
    for (const [rut, path] of [
      ['187654327', '/pagoexpress/infomessage'],
      ['102030400', '/pagoexpress/informativemessage'],
    ] as const) {
      await enter(rut);
      await page.waitForURL(`**${path}`);
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Información importante' }).isVisible()).toBe(true);
      await expectAccessible(page);
      await screenshot(page, `stepone-${path.split('/').pop() ?? ''}`);
      await page.context().close();
    }
  });

  it('does not show a family the administrator switched off', async () => {
    await product().setParameter('TC', '0');
    await enter('111111111');
    await seeFamilies();
    expect(await familyList().getByRole('button').allTextContents()).toEqual(FAMILIES.filter((f) => f !== 'Tarjeta de Crédito'));
  });

  it('keeps the families on a reload, without listing again', async () => {
    await enter('111111111');
    await seeFamilies();
    let listings = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/prod/producto/listar') || request.url().endsWith('/api/captcha/challenge')) listings++;
    });
    await page.reload();
    await expect.poll(() => family('Cuenta de Ahorro').isVisible()).toBe(true);
    expect(await familyList().getByRole('button').count()).toBe(6);
    expect(listings).toBe(0);
  });

  it('goes to the error page when the product list cannot be reached', async () => {
    page = await open();
    await page.route('**/prod/producto/listar', (route) => route.abort('connectionfailed'));
    await enterRut(page, '111111111');
    await page.waitForURL('**/pagoexpress/error');
    await expect.poll(() => page.getByRole('heading', { name: '¡Lo sentimos!' }).isVisible()).toBe(true);
  });
});
