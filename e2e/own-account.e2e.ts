import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { coreBooks } from './support/product';
import { checkBothSizes, DESKTOP, expectLoggedError, PHONE, type Viewport } from './support/browser';
import { enrolHeadlessPhone } from './support/authoriser';
import { chooseOwnAccount, continueToStepThree, coordinate, reachStepTwo, setUpProduct, storedAppState } from './support/journeys';

// Paying from the cooperative's own checking account (cuenta vista): login, second factor, voucher, and the pages
// where it can end instead. Every journey starts at the home and goes through steps 1 to 3 as a member would.

const PASSWORD = '1234';

describe('own-account payment', () => {
  const setup = setUpProduct();
  const { product } = setup;
  let page: Page;

  const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const visible = (locator: ReturnType<Page['getByRole']>) => expect.poll(() => locator.isVisible()).toBe(true);

  /** A new phone (or desktop). Without motion: axe must not judge a button's colour halfway through its transition. */
  async function open(viewport: Viewport = PHONE) {
    page = await setup.open(viewport);
    await page.emulateMedia({ reducedMotion: 'reduce' });
  }

  const check = (name: string) => checkBothSizes(page, `own-account-${name}`);

  /**
   * Home → step 1 (if the member has several families) → step 2 with the oldest instalment chosen; `payFromStepTwo`
   * goes on to the login screen.
   */
  async function reachLogin(memberRut: string, family: string | null, viewport: Viewport = PHONE) {
    await open(viewport);
    // The partial-payment offer of a consumer credit, when the member has one.
    await reachStepTwo(page, memberRut, family, { offer: 'accept if shown' });
  }

  /** From step 2 (credits, oldest instalment already chosen) to the own-account login. */
  async function payFromStepTwo(payLabel = 'Pagar cuotas') {
    await page.getByRole('button', { name: payLabel }).click();
    // A payroll-deduction (CONVENIO) instalment asks first.
    const convenio = page.getByRole('dialog', { name: 'Descuento por planilla' });
    await Promise.race([page.waitForURL('**/pagoexpress/stepthree/**'), convenio.waitFor()]);
    if (await convenio.isVisible()) await convenio.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForURL('**/pagoexpress/stepthree/**');
    await chooseOwnAccount(page);
    await visible(h1('Paga con tu Cuenta Vista'));
  }

  async function logIn(payerRut: string, password = PASSWORD) {
    const rut = page.getByRole('textbox', { name: 'RUT' });
    await rut.fill('');
    await rut.pressSequentially(payerRut.replace(/[.-]/g, ''));
    await page.getByLabel('Clave de internet').fill(password);
    await page.getByRole('button', { name: 'Ingresar' }).click();
  }

  /** The three cells on screen, answered from the card formula. */
  async function answerCoordinates(payerRut: string, wrong = false) {
    const fields = page.getByRole('textbox', { name: /^Coordenada [A-J][1-5]$/ });
    await expect.poll(() => fields.count()).toBe(3);
    const autorizar = page.getByRole('button', { name: 'Autorizar' });
    for (let i = 0; i < 3; i++) {
      const field = fields.nth(i);
      const label = await field.evaluate((input: HTMLInputElement) => input.labels?.[0]?.textContent ?? '');
      const cell = /[A-J][1-5]/.exec(label)?.[0] ?? '';
      expect(await autorizar.isDisabled()).toBe(true);
      const value = coordinate(payerRut, cell);
      await field.fill(wrong ? String((Number(value) + 1) % 100).padStart(2, '0') : value);
    }
    expect(await autorizar.isEnabled()).toBe(true);
    return autorizar;
  }

  it('11.111.111-1 pays a MYPE instalment with the coordinate card; the voucher shows it and it is gone from the list', async () => {
    await enrolHeadlessPhone(product().baseUrl, '11111111-1');
    await reachLogin('11.111.111-1', 'Crédito MYPE');
    await expect.poll(() => page.getByRole('checkbox').count()).toBe(2);
    await payFromStepTwo();
    const rut = page.getByRole('textbox', { name: 'RUT' });
    expect(await rut.inputValue()).toBe('11.111.111-1');
    expect(await page.getByLabel('Clave de internet').getAttribute('type')).toBe('password');
    expect(await page.getByLabel('Clave de internet').getAttribute('maxlength')).toBe('8');
    await visible(page.getByText('$156.300').first());
    await check('login');

    await page.getByLabel('Clave de internet').fill(PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL('**/pagoexpress/PM/coopmethodpaychallenge');
    // Both factors: the mobile authoriser comes first; the card is one link away.
    await visible(h1('Autoriza tu pago'));
    await check('challenge-authoriser');
    await page.getByRole('button', { name: 'Usar tarjeta de coordenadas' }).click();
    await visible(h1('Ingresa tus coordenadas'));
    await visible(page.getByRole('timer'));
    expect(await page.getByRole('timer').innerText()).toMatch(/^[12]:\d\d$/);
    const autorizar = await answerCoordinates('11.111.111-1');
    await check('challenge-coordinates');
    await autorizar.click();

    await page.waitForURL(/\/pagoexpress\/successvoucher\/[^/?]+\?categoria=PM&factor=TCOO$/);
    await visible(h1('Pago exitoso'));
    await visible(page.getByText('Crédito MYPE'));
    // The total and the instalment's line.
    await expect.poll(() => page.getByText('$156.300', { exact: true }).count()).toBe(2);
    await visible(page.getByText('Débito', { exact: true }));
    await visible(page.getByText('Tarjeta de coordenadas'));
    // The voucher proves itself: a QR code, a short code and the public page's address.
    const proof = page.getByRole('region', { name: 'Verifica este comprobante' });
    await visible(proof.getByRole('img', { name: 'Código QR para verificar este comprobante' }));
    const verifyUrl = (await proof.getByRole('link').getAttribute('href'))!;
    expect(verifyUrl).toMatch(/\/comprobante\/verificar\/[A-Z2-7]{20}$/);
    await visible(proof.getByText(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/));
    await check('voucher');
    const voucherUrl = page.url();

    // The core booked it: the MYPE loan's period 9 is paid in the core's own books, under the transaction's key.
    const books = await coreBooks(product().coreUrl);
    const idTransaccion = /successvoucher\/([^/?]+)/.exec(voucherUrl)![1]!;
    expect(books.loans.find((l) => l.externalId === '630055667788')!.periods.filter((p) => p.totalOutstandingForPeriod > 0).map((p) => p.period)).toEqual([10]);
    expect(books.writes.filter((w) => w.idempotencyKey === `${idTransaccion}-1` && w.statusCode === 200)).toHaveLength(1);

    // Anyone shown the voucher checks it on a phone, with no session: only what proves the payment.
    const other = await setup.open(PHONE);
    await other.goto(verifyUrl);
    await visible(other.getByRole('heading', { level: 1, name: 'Comprobante verificado' }));
    await visible(other.getByText('$156.300', { exact: true }));
    await visible(other.getByText('RUT del socio'));
    await visible(other.getByText('**.***.111-1', { exact: true }));
    expect(await other.getByText('11.111.111-1').count()).toBe(0);
    await checkBothSizes(other, 'voucher-verified');
    await other.goto(`${product().baseUrl}/comprobante/verificar/AAAAAAAAAAAAAAAAAAAA`);
    await visible(other.getByRole('heading', { level: 1, name: 'Comprobante no encontrado' }));
    expectLoggedError(other, /404.*\/api\/comprobante\/verificar\//);
    await checkBothSizes(other, 'voucher-not-found');
    await other.context().close();

    // Back from the voucher: the voucher again, never a failure for a payment that went through.
    await page.goBack();
    await page.waitForURL(voucherUrl);
    await visible(h1('Pago exitoso'));
    expect(await page.getByText('No se ha podido realizar el pago').count()).toBe(0);

    await page.getByRole('button', { name: 'Nuevo Pago' }).click();
    await page.waitForURL('**/pagoonline/stepone');
    await page.getByRole('button', { name: 'Crédito MYPE' }).click();
    await page.waitForURL('**/pagoexpress/steptwo/PM');
    await expect.poll(() => page.getByRole('checkbox').count()).toBe(1);

    // After 'Nuevo Pago' the voucher stays reachable from its address, while its session lives.
    await page.goto(voucherUrl);
    await visible(h1('Pago exitoso'));
    await expect.poll(() => page.getByText('$156.300', { exact: true }).count()).toBe(2);
  });

  /**
   * The sandbox's authoriser app on the member's phone: a one-time code, and a key of its own that never leaves it
   * (IndexedDB), enrolled through the authoriser protocol.
   */
  async function enrolSandboxPhone(rut: string): Promise<Page> {
    // Another device: a browser context of its own, on the real clock as a phone's would be.
    const phone = await (await setup.browser().newContext()).newPage();
    await phone.goto(`${product().baseUrl}/sandbox/authorizer?rut=${rut}`);
    await phone.getByRole('button', { name: 'Obtener código de enrolamiento' }).click();
    await expect.poll(() => phone.getByRole('textbox', { name: 'Código de enrolamiento' }).inputValue()).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/);
    await checkBothSizes(phone, 'sandbox-authoriser-enrolment');
    await phone.getByRole('button', { name: 'Enrolar este dispositivo' }).click();
    await expect.poll(() => phone.getByText(`Este dispositivo está enrolado para ${rut}.`).isVisible()).toBe(true);
    return phone;
  }

  it('14.141.414-3 enrols the authoriser app, and pays with the push it approves there', async () => {
    await open();
    const phone = await enrolSandboxPhone('14141414-3');
    await reachStepTwo(page, '14.141.414-3', null, { offer: 'accept if shown' });
    await payFromStepTwo();
    await logIn('14.141.414-3');
    await page.waitForURL('**/pagoexpress/PM/coopmethodpaychallenge');
    await visible(h1('Autoriza tu pago'));
    // Only the authoriser: nothing to switch to.
    expect(await page.getByRole('button', { name: 'Usar tarjeta de coordenadas' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Autorizar' }).click();
    await visible(page.getByText('Revisa tu celular y aprueba la solicitud en la app PassCoop.'));
    await visible(page.getByRole('timer'));
    await check('authoriser-waiting');

    // The phone shows what it is asked to sign: the amount, the account debited and the product.
    await expect.poll(() => phone.getByText('$121.480').isVisible(), { timeout: 10_000 }).toBe(true);
    await visible(phone.getByText(/Desde la cuenta \*{4}5611 · Productos \*{4}1414/));
    await checkBothSizes(phone, 'sandbox-authoriser-push');
    await phone.getByRole('button', { name: 'Aprobar' }).first().click();
    await visible(phone.getByText('Pago aprobado.'));
    await phone.context().close();

    await page.waitForURL(/\/pagoexpress\/successvoucher\/[^/?]+\?categoria=PM&factor=PassCoop$/);
    await visible(h1('Pago exitoso'));
    await expect.poll(() => page.getByText('$121.480', { exact: true }).count()).toBe(2);
    await visible(page.getByText('PassCoop'));
  });

  it('shows the rejection when the push is rejected, and Reintentar starts over', async () => {
    await open();
    const phone = await enrolSandboxPhone('14141414-3');
    await reachStepTwo(page, '14.141.414-3', null, { offer: 'accept if shown' });
    await payFromStepTwo();
    await logIn('14.141.414-3');
    await page.waitForURL('**/coopmethodpaychallenge');
    await page.getByRole('button', { name: 'Autorizar' }).click();
    await visible(page.getByText('Revisa tu celular y aprueba la solicitud en la app PassCoop.'));

    await expect.poll(() => phone.getByRole('button', { name: 'Rechazar' }).count(), { timeout: 10_000 }).toBe(1);
    await phone.getByRole('button', { name: 'Rechazar' }).click();
    await visible(phone.getByText('Pago rechazado.'));
    await phone.context().close();

    const dialog = page.getByRole('dialog', { name: 'No pudimos autorizar tu pago' });
    await visible(dialog);
    await visible(dialog.getByText('La autorización desde tu celular ha sido rechazada, reintenta…'));
    expect(await page.getByText('La autorización desde tu celular ha sido rechazada, reintenta…').count()).toBe(1);
    await check('authoriser-rejected');
    await dialog.getByRole('button', { name: 'Reintentar' }).click();
    await visible(page.getByRole('button', { name: 'Autorizar' }));
  });

  it('19.191.919-K pays 11.111.111-1’s consumer-credit instalment through the security-factor screen', async () => {
    await enrolHeadlessPhone(product().baseUrl, '19191919-K');
    await reachLogin('11.111.111-1', 'Crédito de Consumo', DESKTOP);
    await payFromStepTwo();
    await logIn('19.191.919-K');
    await page.waitForURL('**/pagoexpress/PC/SecurityFactor');
    await visible(h1('Autoriza tu pago'));
    const summary = page.getByRole('definition');
    await expect.poll(() => summary.allInnerTexts()).toEqual(expect.arrayContaining(['19.191.919-K', 'Cuenta Vista', '11.111.111-1']));
    await visible(page.getByText('RUT titular de la cuenta'));
    await visible(page.getByText('RUT beneficiario'));
    await check('security-factor');

    await page.getByRole('button', { name: 'Usar tarjeta de coordenadas' }).click();
    const autorizar = await answerCoordinates('19.191.919-K');
    await autorizar.click();
    await page.waitForURL(/\/pagoexpress\/successvoucher\/[^/?]+\?categoria=PC&factor=TCOO$/);
    await visible(h1('Pago exitoso'));
    await visible(page.getByText('Crédito de Consumo').first());
    await check('voucher-third-party');
  });

  it('15.432.876-9 retries a wrong password and wrong coordinates, then pays', async () => {
    await reachLogin('15.432.876-9', 'Crédito MYPE');
    await payFromStepTwo();
    await logIn('15.432.876-9', 'mala');
    const loginError = page.getByRole('dialog', { name: 'No pudimos validar tus datos' });
    await visible(loginError);
    await check('login-wrong-password');
    await loginError.getByRole('button', { name: 'Reintentar' }).click();
    expect(await page.getByLabel('Clave de internet').inputValue()).toBe('');
    await page.getByLabel('Clave de internet').fill(PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();

    // Factor 1 only: straight to the coordinates, with no link to switch.
    await page.waitForURL('**/pagoexpress/PM/coopmethodpaychallenge');
    await visible(h1('Ingresa tus coordenadas'));
    expect(await page.getByRole('button', { name: 'Usar autorizador móvil' }).count()).toBe(0);
    await (await answerCoordinates('15.432.876-9', true)).click();
    const dialog = page.getByRole('dialog', { name: 'No pudimos autorizar tu pago' });
    await visible(dialog.getByText('Las coordenadas no corresponden. Por favor, intenta nuevamente.'));
    // Once, in the modal: the panel repeats it only after the modal is closed.
    expect(await page.getByText('Las coordenadas no corresponden. Por favor, intenta nuevamente.').count()).toBe(1);
    await check('coordinates-wrong');
    await dialog.getByRole('button', { name: 'Reintentar' }).click();
    // New cells, empty fields.
    await (await answerCoordinates('15.432.876-9')).click();
    await page.waitForURL('**/pagoexpress/successvoucher/**');
    await visible(h1('Pago exitoso'));
  });

  it('16.789.012-1 reaches the insufficient-funds page and may choose another method', async () => {
    await reachLogin('16.789.012-1', null);
    await payFromStepTwo();
    await logIn('16.789.012-1');
    await page.waitForURL('**/coopmethodpaychallenge');
    await (await answerCoordinates('16.789.012-1')).click();
    await page.waitForURL('**/pagoexpress/InsufficientFunds');
    await visible(h1('Saldo insuficiente'));
    await visible(page.getByText('Tu saldo es insuficiente. Abona saldo a tu cuenta o selecciona otro medio de pago.'));
    await check('insufficient-funds');
    await page.getByRole('link', { name: 'Seleccionar otro medio de pago' }).click();
    await page.waitForURL('**/pagoexpress/stepthree/PC');
  });

  it('13.579.246-2 reaches the blocked-password page', async () => {
    await reachLogin('13.579.246-2', null);
    await payFromStepTwo();
    await logIn('13.579.246-2');
    await page.waitForURL('**/pagoexpress/bloquedUser');
    await visible(h1('Tu clave ha sido bloqueada'));
    await visible(page.getByText('Por seguridad tu clave de internet ha sido bloqueada.'));
    await visible(page.getByRole('link', { name: 'Ir al Home' }));
    await check('blocked');
    // An error page clears the state: the session and the selection are gone, and Back cannot resume the payment.
    await expect.poll(async () => (await storedAppState(page)).config.isAuthenticated).toBe(false);
    expect((await storedAppState(page)).customer.token).toBe('');
    expect((await storedAppState(page)).selection.family).toBeNull();

    // 'Recuperar clave' leads to the cooperative's page for it (the sandbox's stand-in here), not back to the home.
    await page.getByRole('link', { name: 'Recuperar clave' }).click();
    await page.waitForURL('**/sandbox/sitio/recuperar-clave');
    await visible(page.getByRole('heading', { level: 1, name: 'Recuperar clave de internet' }));
    // Back: the cleared session no longer opens the blocked page, nor any step of the payment.
    await page.goBack();
    await page.waitForURL(`${product().baseUrl}/`);
  });

  it('17.171.717-5, without any second factor, is told how to get one, with the stores’ links and QR codes', async () => {
    await reachLogin('17.171.717-5', null);
    await payFromStepTwo();
    await logIn('17.171.717-5');
    await page.waitForURL('**/coopmethodpaychallenge');
    await visible(page.getByRole('heading', { name: 'Descarga la app Cooperativa' }));
    for (const store of ['App Store', 'Google Play']) {
      const qr = page.getByRole('img', { name: `Código QR de Cooperativa en ${store}` });
      await visible(qr);
      // A real image of the code, drawn at its size.
      expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 50)).toBe(true);
      await visible(page.getByRole('link', { name: new RegExp(`Descargar en ${store}`) }));
    }
    // Not a dead end: another method of step 3 can pay today.
    await visible(page.getByRole('link', { name: 'Seleccionar otro medio de pago' }));
    await check('app-download');
  });

  it('refuses a deposit into another member’s savings account (ErrorLogin)', async () => {
    await open();
    await reachStepTwo(page, '123456785', null, { category: 'AH' });
    await page.getByRole('checkbox').first().check();
    await page.getByRole('textbox', { name: /Monto que quieres depositar/ }).first().fill('20000');
    await continueToStepThree(page, 'Continuar', 'AH');
    await chooseOwnAccount(page);
    await logIn('19.191.919-K');
    await page.waitForURL('**/pagoexpress/ErrorLogin');
    await visible(h1('No es posible realizar el depósito'));
    await visible(page.getByText('No es posible realizar un depósito en la cuenta de ahorro de otro socio.'));
    await check('error-login');
  });

  it('ends the session after the inactivity delay with the modal and Aceptar', async () => {
    await reachLogin('9.876.543-3', 'Crédito de Consumo');
    await payFromStepTwo();
    // sessionTimeOut is 5 minutes in the seed: the phone's clock jumps past it.
    await page.clock.fastForward('05:01');
    const dialog = page.getByRole('dialog', { name: 'Tiempo de inactividad agotado' });
    await visible(dialog);
    await check('inactivity');
    await dialog.getByRole('button', { name: 'Aceptar' }).click();
    await page.waitForURL(`${product().baseUrl}/pagoexpress`);
    await visible(h1('Pago Online'));
    expect(await page.evaluate(() => sessionStorage.getItem('pago-online'))).not.toContain('"isAuthenticated":true');
  });
});
