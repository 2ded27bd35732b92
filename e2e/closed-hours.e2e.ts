import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBothSizes, expectAccessible, PHONE } from './support/browser';
import { continueToStepThree, enterRut, reachStepTwo, setUpProduct } from './support/journeys';
import { businessNoon } from './support/product';

// Closed hours are the server's: its business clock moves (the sandbox's /sandbox/reloj) while the phone's stays at
// noon, or the other way round, and every step follows the server. One banner names the member's closed families.

/** Nine hours past the business noon: 21:00 or 22:00 in Santiago, the mortgage closed and the rest open. */
const mortgageClosed = () => new Date(businessNoon().getTime() + 9 * 3_600_000);
/** Eleven hours past it: 23:00 or midnight, every family closed. */
const allClosed = () => new Date(businessNoon().getTime() + 11 * 3_600_000);

const MORTGAGE_CLOSED = 'A esta hora no se puede pagar Crédito Hipotecario. Podrás pagar desde las 02:00 hrs.';

describe('closed hours, by the server’s business clock', () => {
  const setup = setUpProduct();
  const { product } = setup;
  let page: Page;

  afterEach(async () => {
    await product().setBusinessTime(businessNoon());
  });

  const banner = () => page.getByRole('note').filter({ hasText: 'Fuera del horario de pago' });
  const visible = (locator: ReturnType<Page['getByRole']>) => expect.poll(() => locator.isVisible()).toBe(true);
  const family = (name: string | RegExp) => page.getByRole('list', { name: 'Tus productos' }).getByRole('button', { name });

  async function open() {
    page = await setup.open(PHONE);
    await page.emulateMedia({ reducedMotion: 'reduce' });
  }

  /** The mortgage's step 2 of 11.111.111-1, with its oldest instalment ticked, while the server's clock is at noon. */
  async function mortgageStepTwo() {
    await open();
    await reachStepTwo(page, '111111111', 'Crédito Hipotecario', { category: 'HI' });
    await expect.poll(() => page.getByRole('checkbox').count()).toBeGreaterThan(0);
  }

  it('names every closed family of the member in one banner at 23:00, and says the hours once', async () => {
    await product().setBusinessTime(allClosed());
    await open();
    await enterRut(page, '111111111');
    await page.waitForURL('**/pagoonline/stepone');
    await visible(banner());
    expect(await banner().textContent()).toBe(
      'Fuera del horario de pago' +
        'A esta hora no se puede pagar Crédito de Consumo, Cuotas de Participación, Crédito Hipotecario, Tarjeta de ' +
        'Crédito, Crédito MYPE y Cuenta de Ahorro. Podrás pagar desde las 02:00 hrs.',
    );
    expect(await page.getByRole('note').filter({ hasText: 'Fuera del horario de pago' }).count()).toBe(1);
    expect(await page.getByText(/02:00/).count()).toBe(1);
    expect(await family(/Cuenta de Ahorro/).isDisabled()).toBe(true);
    await checkBothSizes(page, 'closed-hours-all');
  });

  it('tells 12.345.678-5, who has only savings, about savings alone', async () => {
    await product().setBusinessTime(allClosed());
    await open();
    await enterRut(page, '123456785');
    await page.waitForURL('**/pagoonline/stepone');
    await visible(banner());
    expect(await banner().textContent()).toContain('A esta hora no se puede pagar Cuenta de Ahorro. Podrás pagar desde las 02:00 hrs.');
    expect(await banner().textContent()).not.toContain('Hipotecario');
    await checkBothSizes(page, 'closed-hours-savings-only');
  });

  it('follows the server at noon when the phone’s clock says 23:00', async () => {
    await open();
    await page.clock.setSystemTime(allClosed());
    await enterRut(page, '111111111');
    await page.waitForURL('**/pagoonline/stepone');
    await expect.poll(() => family('Crédito Hipotecario').isEnabled()).toBe(true);
    expect(await banner().count()).toBe(0);
  });

  it('shows the banner instead of the mortgage’s step 2 reached by its address at night', async () => {
    await mortgageStepTwo();
    await product().setBusinessTime(mortgageClosed());
    await page.goto('/pagoexpress/steptwo/HI');
    await visible(banner());
    expect(await banner().textContent()).toContain(MORTGAGE_CLOSED);
    // Nothing to tick or pay: only the way back.
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pagar dividendos' }).count()).toBe(0);
    await checkBothSizes(page, 'closed-hours-steptwo');
    await page.getByRole('link', { name: 'Volver', exact: true }).click();
    await page.waitForURL('**/pagoexpress/stepone');
    await visible(banner());
    expect(await family(/Crédito Hipotecario/).isDisabled()).toBe(true);
  });

  it('refuses the pay button of a step 2 left open since before 20:00, on that screen, without step 3', async () => {
    await mortgageStepTwo();
    await product().setBusinessTime(mortgageClosed());
    await page.getByRole('button', { name: 'Pagar dividendos' }).click();
    await visible(banner());
    expect(await banner().textContent()).toContain(MORTGAGE_CLOSED);
    expect(page.url()).toMatch(/\/pagoexpress\/steptwo\/HI$/);
    await expectAccessible(page);
  });

  it('shows the banner on step 3 reached by Back at night, and at its Continuar, before any selection is sent', async () => {
    await mortgageStepTwo();
    await continueToStepThree(page, 'Pagar dividendos', 'HI');
    const selections: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/prod/producto/seleccionar')) selections.push(request.url());
    });
    await product().setBusinessTime(mortgageClosed());
    // Step 3 left open: 'Continuar' asks the server's clock first.
    await page.getByRole('button', { name: 'Continuar' }).click();
    await visible(banner());
    expect(await banner().textContent()).toContain(MORTGAGE_CLOSED);
    expect(await page.getByRole('radio').count()).toBe(0);
    await checkBothSizes(page, 'closed-hours-stepthree');
    // Back to step 2, then Forward to step 3: each says the same.
    await page.goBack();
    await page.waitForURL('**/pagoexpress/steptwo/HI');
    await visible(banner());
    await page.goForward();
    await page.waitForURL('**/pagoexpress/stepthree/HI');
    await visible(banner());
    expect(selections).toEqual([]);
  });
});
