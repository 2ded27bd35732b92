import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, expectAccessible, PHONE, screenshot, type Viewport } from './support/browser';
import { reachStepTwo, setUpProduct } from './support/journeys';

const ORDER_MESSAGE = 'Debes seleccionar desde la cuota más antigua a la más nueva';
const CONVENIO_MESSAGE =
  'Atención: Pagarás una cuota de tu crédito de consumo originalmente registrada con la modalidad descuento por planilla.';
const MIXED_OVERDUE =
  'Tienes cuotas pendientes: Una vez cancelada tu cuota pendiente, podrás visualizar el resto de ellas';
const NO_DEBT = 'Estimado(a), te informamos que tu tarjeta no registra deuda facturada.';

// Step 2: what the member chooses to pay of each kind of product, on the demo members of the seed.
describe('step 2: what the member pays', () => {
  const { product, open } = setUpProduct();
  let page: Page;

  /** From the home, as a member does: the RUT, 'Ingresar', then the family's button on step 1 (and the offer). */
  async function openStepTwo(rutDigits: string, familyName: string, path: string, viewport: Viewport = PHONE) {
    page = await open(viewport);
    const offered = familyName === 'Crédito de Consumo' && rutDigits === '111111111';
    await reachStepTwo(page, rutDigits, familyName, { category: path, offer: offered ? 'accept' : undefined });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
    // The family's step is whole once its 'Volver' is there (every variant has one).
    await expect.poll(() => page.getByText('Volver', { exact: true }).first().isVisible()).toBe(true);
  }

  const h1 = () => page.getByRole('heading', { level: 1 });
  const checkbox = (name: string) => page.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) });
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  const summary = () => page.getByRole('region', { name: 'Resumen' });
  /** The summary's total: the first amount it shows (its detail repeats the amounts). */
  const total = (amount: string) => summary().getByText(amount, { exact: true }).first();
  const dialog = () => page.getByRole('dialog');

  async function look(name: string) {
    await page.mouse.move(0, 0);
    await screenshot(page, name);
  }

  /** Nothing may be wider than the screen: a phone never scrolls sideways. */
  async function expectNoSidewaysScroll() {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
  }

  /** The screen after 'Pagar': step 3, with the total step 2 handed over. */
  async function expectStepThree(path: string, total: string) {
    await page.waitForURL(`**/pagoexpress/stepthree/${path}`);
    await expect.poll(() => h1().textContent()).toBe('Selecciona tu medio de pago');
    await expect.poll(() => page.getByText(total, { exact: true }).first().isVisible()).toBe(true);
  }

  async function typeInto(field: Locator, text: string) {
    await field.fill('');
    await field.pressSequentially(text);
  }

  it('walks 11.111.111-1 through the consumer credits: order, partial payment, payroll notice and summary', async () => {
    await openStepTwo('111111111', 'Crédito de Consumo', 'PC');
    expect(await h1().textContent()).toBe('Crédito de Consumo');
    expect(await page.getByText('Selecciona las cuotas a pagar de cada producto').isVisible()).toBe(true);
    const first = page.getByRole('region', { name: 'Crédito Nº ****5678' });
    const second = page.getByRole('region', { name: 'Crédito Nº ****4321' });
    expect(await first.getByText('Descuento por planilla').count()).toBe(0);
    expect(await second.getByText('Descuento por planilla').isVisible()).toBe(true);

    // The oldest instalment of each credit is checked on arrival.
    expect(await checkbox('Cuota 21').isChecked()).toBe(true);
    expect(await checkbox('Cuota 22').isChecked()).toBe(false);
    expect(await checkbox('Cuota 11').isChecked()).toBe(true);
    expect(await checkbox('Cuota 12').isChecked()).toBe(false);
    expect(await first.getByText('$85.430').first().isVisible()).toBe(true);
    expect(await first.getByText(/^Vence \d{2}\/\d{2}\/\d{4}$/).count()).toBe(2);
    expect(await summary().getByText('Seleccionado para pagar 2 cuotas').isVisible()).toBe(true);
    expect(await total('$147.580').isVisible()).toBe(true);
    expect(await button('Pagar cuotas').isEnabled()).toBe(true);
    await expectAccessible(page);
    await expectNoSidewaysScroll();
    await look('steptwo-pc');

    // The summary's detail folds on a phone.
    await summary().getByRole('button', { name: 'Ver detalle' }).click();
    expect(await summary().getByRole('button', { name: 'Ocultar detalle' }).getAttribute('aria-expanded')).toBe('true');
    expect(await summary().getByText('Cuota 11').isVisible()).toBe(true);
    await summary().getByRole('button', { name: 'Ocultar detalle' }).click();

    // 'Ver más' shows the rest; taking a later instalment first is refused and the box stays unchecked.
    expect(await checkbox('Cuota 23').count()).toBe(0);
    await first.getByRole('button', { name: 'Ver más' }).click();
    await checkbox('Cuota 23').click();
    await expect.poll(() => dialog().isVisible()).toBe(true);
    expect(await dialog().getByText(ORDER_MESSAGE).isVisible()).toBe(true);
    await expectAccessible(page);
    await look('steptwo-pc-order');
    await dialog().getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    expect(await checkbox('Cuota 23').isChecked()).toBe(false);
    await first.getByRole('button', { name: 'Ver menos' }).click();
    expect(await checkbox('Cuota 23').count()).toBe(0);

    // The partial-payment switch of the newest selected instalment proposes the minimum payment.
    await page.getByRole('switch', { name: /^Monto a abonar/ }).click();
    const amount = page.getByRole('textbox', { name: /^Ingresa el monto a abonar/ });
    expect(await amount.inputValue()).toBe('20.000');
    expect(await page.getByText('Monto mínimo $10.000').isVisible()).toBe(true);
    expect(await total('$82.150').isVisible()).toBe(true);
    await typeInto(amount, '9999');
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await button('Pagar cuotas').isDisabled()).toBe(true);
    // The amount in error is left out of the summary until it is right.
    expect(await summary().getByText('$72.149', { exact: true }).count()).toBe(0);
    expect(await total('$62.150').isVisible()).toBe(true);
    await typeInto(amount, '90000');
    expect(await amount.inputValue()).toBe('90.000');
    expect(await page.getByText('Excede monto pendiente').isVisible()).toBe(true);
    expect(await button('Pagar cuotas').isDisabled()).toBe(true);
    await expectAccessible(page);
    await look('steptwo-pc-partial-error');
    await typeInto(amount, '30000');
    expect(await amount.getAttribute('aria-invalid')).toBeNull();
    expect(await total('$92.150').isVisible()).toBe(true);
    expect(await button('Pagar cuotas').isEnabled()).toBe(true);
    await look('steptwo-pc-partial');

    // A newer instalment takes the switch, off: the older one is paid in full again.
    await checkbox('Cuota 22').click();
    expect(await page.getByRole('switch').count()).toBe(1);
    expect(await page.getByRole('switch', { name: /a la cuota 22/ }).getAttribute('aria-checked')).toBe('false');
    expect(await summary().getByText('Seleccionado para pagar 3 cuotas').isVisible()).toBe(true);
    expect(await total('$233.010').isVisible()).toBe(true);

    // Paying a payroll-deduction instalment asks first.
    await button('Pagar cuotas').click();
    await expect.poll(() => dialog().isVisible()).toBe(true);
    expect(await dialog().getByText(CONVENIO_MESSAGE).isVisible()).toBe(true);
    await expectAccessible(page);
    await look('steptwo-pc-convenio');
    await dialog().getByRole('button', { name: 'Cancelar' }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    expect(page.url()).toMatch(/\/steptwo\/PC$/);
    await button('Pagar cuotas').click();
    await dialog().getByRole('button', { name: 'Pagar' }).click();
    await expectStepThree('PC', '$233.010');
  });

  it('lays the consumer credits out beside the summary on a desktop', async () => {
    await openStepTwo('111111111', 'Crédito de Consumo', 'PC', DESKTOP);
    // From lg up the detail is always open and there is nothing to fold.
    expect(await summary().getByRole('button', { name: 'Ver detalle' }).isVisible()).toBe(false);
    expect(await summary().getByText('Cuota 11').isVisible()).toBe(true);
    const cards = await page.getByRole('region', { name: 'Crédito Nº ****5678' }).boundingBox();
    const side = await summary().boundingBox();
    expect(side && cards && side.x > cards.x + cards.width).toBe(true);
    await page.getByRole('switch', { name: /^Monto a abonar/ }).click();
    await expectAccessible(page);
    await expectNoSidewaysScroll();
    await look('steptwo-pc');
  });

  it('sends a partial amount the server accepts: step 3 creates the transaction', async () => {
    await openStepTwo('111111111', 'Crédito de Consumo', 'PC');
    await checkbox('Cuota 11').click();
    await page.getByRole('switch', { name: /^Monto a abonar/ }).click();
    await typeInto(page.getByRole('textbox', { name: /^Ingresa el monto a abonar/ }), '12345');
    await button('Pagar cuotas').click();
    await expectStepThree('PC', '$12.345');
    // Step 3's label covers its radio button: the member clicks the label.
    await page.getByText(/^Cuenta Vista/).click();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.waitForURL('**/pagoexpress/PC/coopmethodpay');
  });

  it('keeps the member on step 2 after a reload', async () => {
    await openStepTwo('111111111', 'Crédito Hipotecario', 'HI');
    await page.reload();
    await expect.poll(() => h1().textContent()).toBe('Crédito Hipotecario');
    expect(page.url()).toMatch(/\/steptwo\/HI$/);
    expect(await checkbox('Cuota 37').isChecked()).toBe(true);
  });

  it("keeps every kind of step 2's choices through a reload, until 'Pagar'", async () => {
    // A credit: a newer instalment ticked and a partial amount on it.
    await openStepTwo('111111111', 'Crédito de Consumo', 'PC');
    await checkbox('Cuota 22').click();
    await page.getByRole('switch', { name: /^Monto a abonar/ }).click();
    await typeInto(page.getByRole('textbox', { name: /^Ingresa el monto a abonar/ }), '30000');
    const pcTotal = await summary().getByText(/^\$[\d.]+$/).first().textContent();
    await page.reload();
    await expect.poll(() => checkbox('Cuota 22').isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: /^Monto a abonar/ }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('textbox', { name: /^Ingresa el monto a abonar/ }).inputValue()).toBe('30.000');
    expect(await total(pcTotal!).isVisible()).toBe(true);
    await page.context().close();

    // Participation shares: the count.
    await openStepTwo('111111111', 'Cuotas de Participación', 'CP');
    await page.getByRole('textbox', { name: 'Cantidad de cuotas a pagar' }).pressSequentially('3');
    await page.reload();
    await expect.poll(() => page.getByRole('textbox', { name: 'Cantidad de cuotas a pagar' }).inputValue()).toBe('3');
    expect(await total('$15.000').isVisible()).toBe(true);
    await page.context().close();

    // A card: 'Abonar' and its amount.
    await openStepTwo('111111111', 'Tarjeta de Crédito', 'TC');
    await page.getByRole('radio', { name: /^Abonar/ }).click();
    await page.getByRole('textbox', { name: 'Monto a abonar' }).pressSequentially('100000');
    await page.reload();
    await expect.poll(() => page.getByRole('radio', { name: /^Abonar/ }).isChecked()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Monto a abonar' }).inputValue()).toBe('100.000');
    await page.context().close();

    // Savings: the account ticked and the amount.
    await openStepTwo('111111111', 'Cuenta de Ahorro', 'AH');
    await checkbox('Cuenta de ahorro Nº \\*\\*\\*\\*0001').click();
    await page.getByRole('textbox', { name: /^Monto que quieres depositar en la cuenta Nº \*\*\*\*0001/ }).pressSequentially('25000');
    await page.reload();
    await expect.poll(() => checkbox('Cuenta de ahorro Nº \\*\\*\\*\\*0001').isChecked()).toBe(true);
    expect(await page.getByRole('textbox', { name: /^Monto que quieres depositar en la cuenta Nº \*\*\*\*0001/ }).inputValue()).toBe('25.000');
    expect(await total('$25.000').isVisible()).toBe(true);
    // What is kept goes with the rest of the state: the home clears it.
    await page.goto(`${product().baseUrl}/`);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('pago-online') ?? '')).not.toContain('25.000');
  });

  it('shows the mortgage and MYPE credits of 11.111.111-1 with their own pay buttons', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await openStepTwo('111111111', 'Crédito Hipotecario', 'HI', viewport);
      await expect.poll(() => page.getByRole('region', { name: 'Crédito Nº ****3344' }).isVisible()).toBe(true);
      expect(await checkbox('Cuota 37').isChecked()).toBe(true);
      expect(await page.getByRole('button', { name: 'Ver más' }).isVisible()).toBe(true);
      expect(await page.getByRole('switch').count()).toBe(0);
      expect(await total('$412.870').isVisible()).toBe(true);
      await expectAccessible(page);
      await expectNoSidewaysScroll();
      await look('steptwo-hi');
      await checkbox('Cuota 38').click();
      await button('Pagar dividendos').click();
      await expectStepThree('HI', '$825.740');
      await page.context().close();

      await openStepTwo('111111111', 'Crédito MYPE', 'PM', viewport);
      expect(await h1().textContent()).toBe('Crédito MYPE');
      expect(await page.getByRole('button', { name: 'Ver más' }).count()).toBe(0);
      expect(await checkbox('Cuota 9').isChecked()).toBe(true);
      expect(await checkbox('Cuota 10').isChecked()).toBe(false);
      await expectAccessible(page);
      await look('steptwo-pm');
      await checkbox('Cuota 9').click();
      expect(await button('Pagar cuotas').isDisabled()).toBe(true);
      expect(await summary().getByText('Seleccionado para pagar 0 cuotas').isVisible()).toBe(true);
      await checkbox('Cuota 9').click();
      await button('Pagar cuotas').click();
      await expectStepThree('PM', '$156.300');
      await page.context().close();
    }
  });

  it('takes a count of participation shares between 1 and the accumulated ones', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await openStepTwo('111111111', 'Cuotas de Participación', 'CP', viewport);
      expect(await h1().textContent()).toBe('Cuotas de Participación');
      expect(await page.getByText('Valor cuota').isVisible()).toBe(true);
      expect(await page.getByText('$5.000', { exact: true }).first().isVisible()).toBe(true);
      expect(await page.getByText('Cuotas acumuladas').isVisible()).toBe(true);
      const count = page.getByRole('textbox', { name: 'Cantidad de cuotas a pagar' });
      expect(await count.getAttribute('maxlength')).toBe('13');
      expect(await button('Pagar cuotas').isDisabled()).toBe(true);
      await count.pressSequentially('7');
      expect(await page.getByText('Excedes el máximo de cuotas').isVisible()).toBe(true);
      expect(await button('Pagar cuotas').isDisabled()).toBe(true);
      await expectAccessible(page);
      await expectNoSidewaysScroll();
      await look('steptwo-cp-error');
      await typeInto(count, '3');
      expect(await total('$15.000').isVisible()).toBe(true);
      expect(await summary().getByText('Seleccionado para pagar 3 cuotas').isVisible()).toBe(true);
      await look('steptwo-cp');
      await button('Pagar cuotas').click();
      await expectStepThree('CP', '$15.000');
      await page.context().close();
    }
  });

  it("pays the credit card's minimum, total or an amount between them", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await openStepTwo('111111111', 'Tarjeta de Crédito', 'TC', viewport);
      expect(await h1().textContent()).toBe('Tarjetas de Crédito');
      expect(await page.getByText('Selecciona una opción de pago de tus monto(s) facturados').isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: 'MasterCard Internacional Nº ****7890' }).isVisible()).toBe(true);
      expect(await page.getByText(/^\d{2}\/\d{2}\/\d{4}$/).count()).toBe(2);
      expect(await button('Pagar tarjeta').isDisabled()).toBe(true);
      const amount = page.getByRole('textbox', { name: 'Monto a abonar' });
      expect(await amount.isDisabled()).toBe(true);
      await expectAccessible(page);
      await expectNoSidewaysScroll();
      await look('steptwo-tc');

      await page.getByRole('radio', { name: /^Pago mínimo/ }).click();
      expect(await total('$35.000').isVisible()).toBe(true);
      expect(await summary().getByText('Seleccionado para pagar 1 monto(s) facturado(s)').isVisible()).toBe(true);
      await page.getByRole('radio', { name: /^Abonar/ }).click();
      expect(await amount.isEnabled()).toBe(true);
      await amount.pressSequentially('34999');
      expect(await page.getByText('Monto debe superar pago mínimo').isVisible()).toBe(true);
      expect(await button('Pagar tarjeta').isDisabled()).toBe(true);
      expect(await summary().getByText('$34.999', { exact: true }).count()).toBe(0);
      await typeInto(amount, '350001');
      expect(await page.getByText('Monto supera deuda facturada').isVisible()).toBe(true);
      await expectAccessible(page);
      await look('steptwo-tc-error');
      await page.getByRole('radio', { name: /^Total facturado/ }).click();
      expect(await amount.inputValue()).toBe('');
      expect(await amount.isDisabled()).toBe(true);
      await page.getByRole('radio', { name: /^Abonar/ }).click();
      await amount.pressSequentially('100000');
      expect(await amount.inputValue()).toBe('100.000');
      await button('Pagar tarjeta').click();
      await expectStepThree('TC', '$100.000');
      await page.context().close();
    }
  });

  it('deposits into the savings accounts between $1.000 and less than $5.000.000', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await openStepTwo('111111111', 'Cuenta de Ahorro', 'AH', viewport);
      expect(await h1().textContent()).toBe('Cuenta de Ahorro');
      expect(await page.getByText('Selecciona la cuenta y el monto que quieres depositar').isVisible()).toBe(true);
      const account = checkbox('Cuenta de ahorro Nº \\*\\*\\*\\*0001');
      const amount = page.getByRole('textbox', { name: /^Monto que quieres depositar en la cuenta Nº \*\*\*\*0001/ });
      expect(await page.getByRole('textbox', { name: /^Monto que quieres depositar/ }).count()).toBe(2);
      expect(await amount.isDisabled()).toBe(true);
      expect(await button('Continuar').isDisabled()).toBe(true);
      await expectAccessible(page);
      await expectNoSidewaysScroll();
      await look('steptwo-ah');

      await account.click();
      await amount.pressSequentially('999');
      expect(await page.getByText('El monto a abonar tiene que ser mayor $1000').isVisible()).toBe(true);
      expect(await button('Continuar').isDisabled()).toBe(true);
      // An amount that shows an error is not counted.
      expect(await summary().getByText('$999', { exact: true }).count()).toBe(0);
      expect(await total('$0').isVisible()).toBe(true);
      await typeInto(amount, '5000000');
      expect(await amount.inputValue()).toBe('5.000.000');
      expect(await page.getByText('El monto a abonar tiene que ser menor a $5.000.000').isVisible()).toBe(true);
      await expectAccessible(page);
      await look('steptwo-ah-error');
      await account.click();
      expect(await amount.inputValue()).toBe('');
      expect(await page.getByText('El monto a abonar tiene que ser menor a $5.000.000').count()).toBe(0);
      await account.click();
      await amount.pressSequentially('25000');
      expect(await summary().getByText('Total a depositar').isVisible()).toBe(true);
      expect(await total('$25.000').isVisible()).toBe(true);
      await button('Continuar').click();
      await expectStepThree('AH', '$25.000');
      await page.context().close();
    }
  });

  it('shows 9.876.543-3 only the overdue mortgage instalments, and says the others are hidden', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await openStepTwo('98765433', 'Crédito Hipotecario', 'HI', viewport);
      expect(await page.getByText(MIXED_OVERDUE).isVisible()).toBe(true);
      expect(await page.getByRole('checkbox').count()).toBe(2);
      expect(await checkbox('Cuota 61').isChecked()).toBe(true);
      expect(await checkbox('Cuota 62').isChecked()).toBe(false);
      expect(await page.getByText('Vencida', { exact: true }).count()).toBe(2);
      expect(await page.getByRole('button', { name: 'Ver más' }).count()).toBe(0);
      // With its badge, an overdue row keeps its amount on the right of the first line, above the date.
      const amountBox = await page.getByRole('list').getByText('$398.200').first().boundingBox();
      const dateBox = await page.getByText(/^Vence \d{2}\/\d{2}\/\d{4}$/).first().boundingBox();
      expect(amountBox!.y + amountBox!.height).toBeLessThanOrEqual(dateBox!.y + 2);
      expect(amountBox!.x).toBeGreaterThan(dateBox!.x + dateBox!.width);
      await expectAccessible(page);
      await expectNoSidewaysScroll();
      await look('steptwo-hi-overdue');
      await page.context().close();
    }
  });

  it('tells 15.432.876-9 that the card has no billed debt, with the options disabled', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await openStepTwo('154328769', 'Tarjeta de Crédito', 'TC', viewport);
      expect(await page.getByText(NO_DEBT).isVisible()).toBe(true);
      for (const radio of await page.getByRole('radio').all()) expect(await radio.isDisabled()).toBe(true);
      expect(await page.getByRole('textbox', { name: 'Monto a abonar' }).isDisabled()).toBe(true);
      expect(await button('Pagar tarjeta').isDisabled()).toBe(true);
      await expectAccessible(page);
      await look('steptwo-tc-no-debt');
      await page.context().close();
    }
  });

  it('takes 12.345.678-5 straight to the savings step, and back to the home', async () => {
    page = await open(PHONE);
    await reachStepTwo(page, '123456785', null, { category: 'AH' });
    await expect.poll(() => h1().textContent()).toBe('Cuenta de Ahorro');
    expect(await page.getByRole('checkbox').count()).toBe(1);
    await expectAccessible(page);
    await look('steptwo-ah-single');
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL(`${product().baseUrl}/pagoexpress`);
  });
});
