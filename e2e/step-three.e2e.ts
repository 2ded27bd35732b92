import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, expectAccessible, PHONE, screenshot, type Viewport } from './support/browser';
import { continueToStepThree, reachStepTwo, setUpProduct } from './support/journeys';

// Step 3: the payment methods offered, the card warning, and the selection call (call 3). Each test walks from the
// home through steps 1 and 2 with their own controls: nothing is put into the app's state by hand.
describe('step 3: the payment method', () => {
  const { open } = setUpProduct();
  let page: Page;

  const own = () => page.getByRole('radio', { name: 'Cuenta Vista Cooperativa' });
  const card = () => page.getByRole('radio', { name: 'Webpay' });
  const proceed = () => page.getByRole('button', { name: 'Continuar' });
  const summary = () => page.getByRole('complementary', { name: 'Resumen de tu pago' });

  /** Home → step 1 → the family's button → step 2 (the default selection, unless `inStepTwo` chooses) → step 3. */
  async function reachStepThree(
    rutDigits: string,
    family: string,
    category: string,
    payLabel: string,
    viewport: Viewport = PHONE,
    inStepTwo: () => Promise<void> = async () => {},
  ) {
    page = await open(viewport);
    await reachStepTwo(page, rutDigits, family, { category });
    await inStepTwo();
    await continueToStepThree(page, payLabel, category);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Selecciona tu medio de pago' }).isVisible()).toBe(true);
  }

  it("offers 11.111.111-1's current mortgage only the cooperative's own method, then opens its login", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await reachStepThree('111111111', 'Crédito Hipotecario', 'HI', 'Pagar dividendos', viewport);
      expect(await page.getByRole('radio').count()).toBe(1);
      expect(await own().isVisible()).toBe(true);
      expect(await card().count()).toBe(0);
      // The only method offered is chosen already: one tap less, no dead end.
      expect(await own().getAttribute('aria-checked')).toBe('true');
      expect(await proceed().isEnabled()).toBe(true);
      expect(await summary().getByText('Total a pagar').isVisible()).toBe(true);
      expect(await summary().getByText('Crédito Hipotecario').isVisible()).toBe(true);
      expect(await summary().textContent()).toMatch(/Nº \*{4}\d{4}/);
      expect(await summary().textContent()).toMatch(/Cuota Nº \d+/);
      await expectAccessible(page);
      await page.mouse.move(0, 0);
      await screenshot(page, 'stepthree-mortgage');

      await proceed().click();
      await page.waitForURL('**/pagoexpress/HI/coopmethodpay');
      await page.context().close();
    }
  });

  it('offers 9.876.543-3, whose mortgage is overdue past the grace days, the card provider too', async () => {
    await reachStepThree('98765433', 'Crédito Hipotecario', 'HI', 'Pagar dividendos');
    expect(await page.getByRole('radio').count()).toBe(2);
    expect(await card().isVisible()).toBe(true);
    await expectAccessible(page);
    await page.mouse.move(0, 0);
    await screenshot(page, 'stepthree-overdue');
    await card().click();
    // Only the credit card warns before paying with a card.
    expect(await page.getByRole('dialog').count()).toBe(0);
    await proceed().click();
    await page.waitForURL('**/pagoexpress/HI/webpaymethodpay');
  });

  it('warns that a credit card is paid only with debit or prepaid cards', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await reachStepThree('111111111', 'Tarjeta de Crédito', 'TC', 'Pagar tarjeta', viewport, async () => {
        await page.getByRole('radio', { name: 'Pago mínimo' }).click();
      });
      expect(await summary().getByText('Tarjeta de Crédito').isVisible()).toBe(true);
      await card().click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.textContent()).toContain('débito o prepago');
      await expectAccessible(page);
      await page.mouse.move(0, 0);
      await screenshot(page, 'stepthree-card-warning');

      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await card().getAttribute('aria-checked')).toBe('false');
      expect(await proceed().isDisabled()).toBe(true);

      await card().click();
      await dialog.getByRole('button', { name: 'Entendido' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await card().getAttribute('aria-checked')).toBe('true');
      await proceed().click();
      await page.waitForURL('**/pagoexpress/TC/webpaymethodpay');
      await page.context().close();
    }
  });

  it("'Volver' returns to step 2, and a reload keeps the member's selection", async () => {
    await reachStepThree('111111111', 'Crédito MYPE', 'PM', 'Pagar cuotas');
    const total = await summary().textContent();
    await page.reload();
    await expect.poll(() => summary().textContent()).toBe(total);
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL('**/pagoexpress/steptwo/PM');
  });
});
