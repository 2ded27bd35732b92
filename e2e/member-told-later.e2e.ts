import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkBothSizes, DESKTOP, expectAccessible, PHONE, screenshot } from './support/browser';
import { chooseOwnAccount, continueToStepThree, reachStepTwo, setUpProduct } from './support/journeys';
import { businessNoon, freePort } from './support/product';

// What the member is told late in a payment, and what staff find of it: the idle warning on steps 2 and 3, a refused
// login (closing hours, a blocked password) in the console's audit trail, and a second tab's cuenta vista payment
// stopped while the card form is open in another.

const PASSWORD = '1234';
/** Nine hours past the business noon: 21:00 or 22:00 in Santiago, the mortgage closed and the rest open. */
const mortgageClosed = () => new Date(businessNoon().getTime() + 9 * 3_600_000);

describe('what the member is told late in a payment, and what staff find', () => {
  let adminPort = 0;
  // Registered before the product's: its port is known when the product starts.
  beforeAll(async () => {
    adminPort = await freePort();
  });
  // localhost: the operator's session cookie is Secure, kept over plain HTTP on localhost only.
  const operatorOrigin = () => `http://localhost:${adminPort}`;
  const setup = setUpProduct(() => ({ env: { ADMIN_PORT: String(adminPort), OPERATOR_BASE_URL: operatorOrigin() } }));
  const { product } = setup;

  const visible = (locator: Locator) => expect.poll(() => locator.isVisible(), { timeout: 20_000 }).toBe(true);

  async function logIn(page: Page, payerRut: string, password = PASSWORD) {
    const rut = page.getByRole('textbox', { name: 'RUT' });
    await rut.fill('');
    await rut.pressSequentially(payerRut.replace(/[.-]/g, ''));
    await page.getByLabel('Clave de internet').fill(password);
    await page.getByRole('button', { name: 'Ingresar' }).click();
  }

  it('warns on steps 2 and 3 that the session ended, once sessionTimeOut idle minutes have passed, before anything is filled in', async () => {
    for (const step of ['steptwo', 'stepthree'] as const) {
      const page = await setup.open(PHONE);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      // The phone's clock is the test's (openPage installs it): the five idle minutes (sessionTimeOut) pass at once.
      await reachStepTwo(page, '111111111', 'Crédito MYPE', { category: 'PM' });
      if (step === 'stepthree') await continueToStepThree(page, 'Pagar cuotas', 'PM');
      // The step's code arrives after its address: its watch starts once it is drawn, and the clock moves from there.
      await visible(page.getByRole('button', { name: step === 'steptwo' ? 'Pagar cuotas' : 'Continuar', exact: true }));
      await page.waitForTimeout(1_000);
      const modal = page.getByRole('dialog', { name: 'Tiempo de inactividad agotado' });
      expect(await modal.count()).toBe(0);
      await page.clock.fastForward('05:01');
      await visible(modal);
      await checkBothSizes(page, `idle-${step}`);
      await modal.getByRole('button', { name: 'Aceptar' }).click();
      await page.waitForURL(/\/pagoexpress\/?$/);
      await page.context().close();
    }
  }, 240_000);

  it('records logins the server refused, at closing time and with a blocked password, and the auditor reads them in the console', async () => {
    // Closing hours reached between the selection and the login.
    const closed = await setup.open(PHONE);
    await reachStepTwo(closed, '111111111', 'Crédito Hipotecario', { category: 'HI' });
    await continueToStepThree(closed, 'Pagar dividendos', 'HI');
    await chooseOwnAccount(closed);
    await product().setBusinessTime(mortgageClosed());
    try {
      await logIn(closed, '11.111.111-1');
      await visible(closed.getByText(/vuelve a intentarlo a partir de las 02:00 hrs/));
    } finally {
      await product().setBusinessTime(businessNoon());
    }
    // A member whose password is blocked tries it.
    const blocked = await setup.open(PHONE);
    await reachStepTwo(blocked, '135792462', null);
    await continueToStepThree(blocked, 'Pagar cuotas', 'PC');
    await chooseOwnAccount(blocked);
    await logIn(blocked, '13.579.246-2');
    await blocked.waitForURL('**/pagoexpress/bloquedUser');

    // The auditor signs in to the console and finds both, in words.
    const context = await setup.browser().newContext({ viewport: DESKTOP, locale: 'es-CL', timezoneId: 'America/Santiago' });
    const auditor = await context.newPage();
    const errors: string[] = [];
    auditor.on('pageerror', (error) => errors.push(error.message));
    auditor.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('favicon.ico')) errors.push(message.text());
    });
    try {
      await auditor.goto(`${operatorOrigin()}/operador/`);
      await auditor.getByRole('link', { name: 'Ingresar' }).click();
      await auditor.getByLabel('Usuario').fill('auditor');
      await auditor.getByLabel('Clave').fill('auditor-demo');
      await auditor.getByLabel('Código de verificación (segundo factor)').fill('123456');
      await auditor.getByRole('button', { name: 'Ingresar' }).click();
      await auditor.getByRole('heading', { level: 1, name: 'Inicio' }).waitFor();
      await auditor.getByRole('link', { name: 'Auditoría' }).click();
      for (const [kind, words, rut] of [
        ['clave.rechazada.horario', 'Ingreso rechazado: pagos cerrados a esa hora', '111-1'],
        ['clave.rechazada.bloqueada', 'Ingreso rechazado: clave bloqueada', '246-2'],
      ] as const) {
        await auditor.getByLabel('Tipo de evento').selectOption(kind);
        await auditor.getByRole('button', { name: 'Filtrar' }).click();
        await visible(auditor.getByText(words, { exact: true }).first());
        await visible(auditor.getByRole('cell', { name: new RegExp(`\\*+${rut}`) }).first());
      }
      await expectAccessible(auditor);
      for (const viewport of [DESKTOP, { width: 820, height: 1180 }]) {
        await auditor.setViewportSize(viewport);
        await screenshot(auditor, 'console-audit-refused-logins');
        expect(await auditor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('stops a second tab’s cuenta vista payment while the card form is open in another, so nobody pays twice', async () => {
    // Tab B selects the MYPE instalment for its cuenta vista and reaches its login; a selection holds nothing.
    const own = await setup.open(PHONE);
    await reachStepTwo(own, '111111111', 'Crédito MYPE', { category: 'PM' });
    await continueToStepThree(own, 'Pagar cuotas', 'PM');
    await chooseOwnAccount(own);
    // Tab A opens Webpay's form for the same instalment.
    const card = await setup.open(PHONE);
    await reachStepTwo(card, '111111111', 'Crédito MYPE', { category: 'PM' });
    await continueToStepThree(card, 'Pagar cuotas', 'PM');
    await card.getByText(/Webpay/).first().click();
    await card.getByRole('button', { name: 'Continuar' }).click();
    await card.waitForURL(`${product().webpayUrl}/webpayserver/initTransaction`);
    // B logs in: refused, and told why, before anything is charged.
    await logIn(own, '11.111.111-1');
    await visible(own.getByText(/Ya hay un pago en curso de lo que seleccionaste/));
    expect(await own.getByText(/Coordenada/).count()).toBe(0);
    await checkBothSizes(own, 'own-account-stopped-card-open');
    // A pays on Webpay: charged once, and told so.
    await card.getByLabel('Número de tarjeta').fill('4051 8856 0044 6623');
    await card.getByLabel('Vencimiento (MM/AA)').fill('12/29');
    await card.getByLabel('CVV').fill('123');
    await card.getByRole('button', { name: 'Pagar', exact: true }).click();
    await card.waitForURL(/\/pagoexpress\/successvoucher\//);
    await visible(card.getByRole('heading', { level: 1, name: 'Pago exitoso' }));
  }, 240_000);
});
