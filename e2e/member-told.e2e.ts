import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkBothSizes, expectAccessible, PHONE } from './support/browser';
import { chooseOwnAccount, continueToStepThree, coordinate, reachStepTwo, setUpProduct } from './support/journeys';

// What the member is told along the way: the summary of a partial payment, the way out of a second factor, the
// vouchers opened elsewhere, the warning before the last password attempt, and the factor screen's rows.

const PASSWORD = '1234';

describe('what the member is told', () => {
  const setup = setUpProduct();
  let page: Page;

  const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const visible = (locator: Locator) => expect.poll(() => locator.isVisible()).toBe(true);
  const summary = () => page.getByRole('region', { name: 'Resumen' });
  const checkbox = (name: string) => page.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) });

  async function open() {
    page = await setup.open(PHONE);
    // Without motion: axe must not judge a button's colour halfway through its transition.
    await page.emulateMedia({ reducedMotion: 'reduce' });
  }

  async function check(name: string) {
    await page.mouse.move(0, 0);
    await checkBothSizes(page, `told-${name}`);
  }

  async function logIn(payerRut: string, password = PASSWORD) {
    const rut = page.getByRole('textbox', { name: 'RUT' });
    await rut.fill('');
    await rut.pressSequentially(payerRut.replace(/[.-]/g, ''));
    await page.getByLabel('Clave de internet').fill(password);
    await page.getByRole('button', { name: 'Ingresar' }).click();
  }

  /** The three cells on screen, answered from the card formula (one off each when `wrong`), then 'Autorizar'. */
  async function answerCoordinates(payerRut: string, wrong = false) {
    const fields = page.getByRole('textbox', { name: /^Coordenada [A-J][1-5]$/ });
    await expect.poll(() => fields.count()).toBe(3);
    for (const field of await fields.all()) {
      const label = await field.evaluate((input: HTMLInputElement) => input.labels?.[0]?.textContent ?? '');
      const value = coordinate(payerRut, /[A-J][1-5]/.exec(label)?.[0] ?? '');
      await field.fill(wrong ? String((Number(value) + 1) % 100).padStart(2, '0') : value);
    }
    await page.getByRole('button', { name: 'Autorizar' }).click();
  }

  it('counts every ticked instalment, flags the amount to correct, and says “Abono parcial” on step 3 and on the voucher', async () => {
    await open();
    await reachStepTwo(page, '111111111', 'Crédito de Consumo', { category: 'PC', offer: 'accept' });
    // The payroll-deduction credit's instalment is left out: only Cuota 21, with the partial-payment switch, is paid.
    await checkbox('Cuota 11').click();
    await page.getByRole('switch', { name: /^Monto a abonar/ }).click();
    const amount = page.getByRole('textbox', { name: /^Ingresa el monto a abonar/ });
    await amount.fill('');
    await amount.pressSequentially('99999');
    await visible(page.getByText('Excede monto pendiente'));
    const ticked = await page.getByRole('checkbox', { checked: true }).count();
    expect(ticked).toBeGreaterThan(0);
    const told = (await summary().innerText()).replace(/\s+/g, ' ');
    // The count is the ticks', and the amount that needs correcting is named instead of priced.
    expect(told).toContain(`Seleccionado para pagar ${ticked} ${ticked === 1 ? 'cuota' : 'cuotas'}`);
    expect(told).toContain('Corrige el monto a abonar de la cuota 21.');
    expect(await page.getByRole('button', { name: 'Pagar cuotas' }).isDisabled()).toBe(true);
    // The detail names the line instead of pricing it.
    await summary().getByRole('button', { name: 'Ver detalle' }).click();
    await visible(summary().getByText('Por corregir'));
    await check('partial-to-correct');

    await amount.fill('');
    await amount.pressSequentially('12345');
    await expect.poll(async () => (await summary().innerText()).includes('Por corregir')).toBe(false);
    await continueToStepThree(page, 'Pagar cuotas', 'PC');
    const stepThree = page.getByRole('complementary', { name: 'Resumen de tu pago' });
    await visible(stepThree.getByText('Cuota Nº 21 · Abono parcial'));
    await check('partial-step-three');

    await chooseOwnAccount(page);
    await page.getByLabel('Clave de internet').fill(PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL('**/pagoexpress/PC/coopmethodpaychallenge');
    await answerCoordinates('11.111.111-1');
    await page.waitForURL('**/pagoexpress/successvoucher/**');
    await visible(h1('Pago exitoso'));
    await visible(page.getByText('Cuota Nº 21 · Abono parcial'));
    // Paid in part, so no whole instalment to count.
    expect(await page.getByText('Cantidad de cuotas').count()).toBe(0);
    await check('partial-voucher');
  });

  it('lets a payer whose coordinates failed choose another method, from the failure and from the screen', async () => {
    await open();
    await reachStepTwo(page, '15.432.876-9', 'Crédito MYPE', { category: 'PM' });
    await continueToStepThree(page, 'Pagar cuotas', 'PM');
    await chooseOwnAccount(page);
    await logIn('15.432.876-9');
    await page.waitForURL('**/pagoexpress/PM/coopmethodpaychallenge');
    // The way out is there before anything fails.
    await visible(page.getByRole('link', { name: 'Seleccionar otro medio de pago' }));
    await answerCoordinates('15.432.876-9', true);
    const dialog = page.getByRole('dialog', { name: 'No pudimos autorizar tu pago' });
    await visible(dialog);
    expect(await dialog.getByRole('button', { name: 'Reintentar' }).isVisible()).toBe(true);
    await visible(dialog.getByRole('link', { name: 'Seleccionar otro medio de pago' }));
    await check('factor-failed');
    await dialog.getByRole('link', { name: 'Seleccionar otro medio de pago' }).click();
    await page.waitForURL('**/pagoexpress/stepthree/PM');
    await visible(h1('Selecciona tu medio de pago'));
    await expectAccessible(page);
  });

  it('explains a cancel voucher and a success voucher opened without the paying session alike', async () => {
    const id = 'a'.repeat(32);
    for (const path of [`/pagoexpress/cancelvoucher/${id}`, `/pagoexpress/successvoucher/${id}?categoria=PM&factor=TCOO`]) {
      await open();
      await page.goto(path);
      await visible(h1('Comprobante no disponible'));
      await visible(page.getByText('El comprobante se muestra en el navegador y la sesión en que realizaste el pago.'));
      expect(new URL(page.url()).pathname).toBe(path.split('?')[0]);
      await check(`voucher-elsewhere-${path.split('/')[2] ?? ''}`);
      await page.context().close();
    }
  });

  it('warns 17.171.717-5 before the last password attempt, blocks at the one after, and offers a new payment by card', async () => {
    await open();
    await reachStepTwo(page, '17.171.717-5', null, { offer: 'accept if shown' });
    await continueToStepThree(page, 'Pagar cuotas', 'PC');
    await chooseOwnAccount(page);
    const loginError = page.getByRole('dialog', { name: 'No pudimos validar tus datos' });

    await logIn('17.171.717-5', 'mala1');
    await visible(loginError.getByText('RUT o clave incorrecta. Por favor, verifica tus datos e intenta nuevamente.'));
    expect(await loginError.getByText(/Te queda/).count()).toBe(0);
    await loginError.getByRole('button', { name: 'Reintentar' }).click();

    await logIn('17.171.717-5', 'mala2');
    await visible(loginError.getByText('RUT o clave incorrecta. Te queda 1 intento: si la clave vuelve a ser incorrecta, se bloqueará por seguridad.'));
    await check('login-last-attempt');
    await loginError.getByRole('button', { name: 'Reintentar' }).click();

    await logIn('17.171.717-5', 'mala3');
    await page.waitForURL('**/pagoexpress/bloquedUser');
    await visible(page.getByText('Por seguridad tu clave de internet ha sido bloqueada.'));
    await check('blocked-card-way-out');

    // Another way to pay: a new payment by card from the home, the RUT already typed (the payment was cleared).
    await page.getByRole('link', { name: 'Pagar con Webpay' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.getByRole('textbox', { name: 'RUT' }).inputValue()).toBe('17.171.717-5');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL('**/pagoexpress/steptwo/PC');
    await continueToStepThree(page, 'Pagar cuotas', 'PC');
    await page.getByRole('radio', { name: /Webpay/ }).click();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.waitForURL('**/pagoexpress/PC/webpaymethodpay');
  });

  it('keeps every row of the security factor’s summary on one line at 390 px', async () => {
    await open();
    await reachStepTwo(page, '111111111', 'Crédito MYPE', { category: 'PM' });
    await continueToStepThree(page, 'Pagar cuotas', 'PM');
    await chooseOwnAccount(page);
    // A third party pays with their own account: the security factor screen.
    await logIn('19.191.919-K');
    await page.waitForURL('**/pagoexpress/PM/SecurityFactor');
    await visible(page.getByText('RUT titular de la cuenta'));
    const rows = page.locator('dl').first().locator(':scope > div');
    expect(await rows.count()).toBe(5);
    for (const row of await rows.all()) {
      const [term, value] = [await row.locator('dt').boundingBox(), await row.locator('dd').boundingBox()];
      // The value starts above where the label ends: they share a line.
      expect(value!.y, await row.innerText()).toBeLessThan(term!.y + term!.height);
      expect(value!.x).toBeGreaterThan(term!.x + term!.width);
    }
    expect(await page.locator('dd', { hasText: '19.191.919-K' }).innerText()).toBe('19.191.919-K');
    await visible(page.getByRole('link', { name: 'Seleccionar otro medio de pago' }));
    await check('security-factor');
  });
});
