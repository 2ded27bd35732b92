import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkBothSizes, PHONE } from './support/browser';
import { continueToStepThree, reachStepTwo, setUpProduct, storedAppState } from './support/journeys';
import { coreBooks, type ProductOptions } from './support/product';

// Paying by card through Webpay Plus Mall (the simulator's hosted form, behind the real transbank-sdk): from the home
// through steps 1 to 3 with their own controls, the hand-over to Webpay, the card form, and the screens the member
// comes back to. Nothing is put into the app's state by hand.

const VISA_APPROVED = '4051 8856 0044 6623';
const MASTERCARD_REJECTED = '5186 0595 5959 0568';
const ID = /[0-9a-f]{32}/;

/** The member's journeys of this file, on a product and a browser of the calling describe's own. */
function journeys(options?: ProductOptions) {
  const { product, open } = setUpProduct(options);
  let page: Page;
  const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const visible = (locator: Locator) => expect.poll(() => locator.isVisible()).toBe(true);
  const checkbox = (name: string) => page.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) });

  /** checkBothSizes, with the pointer in a corner: no control shows its hover state on the screenshots. */
  async function check(name: string) {
    await page.mouse.move(0, 0);
    await checkBothSizes(page, `card-${name}`);
  }

  /** A new phone, the page the journeys go on. */
  async function openPhone() {
    page = await open(PHONE);
    return page;
  }

  /** Home → RUT → 'Ingresar' → 'Crédito MYPE' (null: the member's only family, past step 1) → step 2. */
  async function openStepTwo(rutDigits: string, family: string | null = 'Crédito MYPE') {
    await reachStepTwo(page, rutDigits, family, { category: 'PM' });
    await visible(h1('Crédito MYPE'));
  }

  /** Step 2 with the oldest instalment (checked by default) → 'Pagar cuotas' → step 3 → Webpay → 'Continuar'. */
  async function chooseCard() {
    await continueToStepThree(page, 'Pagar cuotas', 'PM');
    await page.getByRole('radio', { name: /Webpay/ }).click();
    await page.getByRole('button', { name: 'Continuar' }).click();
  }

  /** Webpay's hosted form, filled with a test card. */
  async function payOnWebpay(card: string) {
    await page.waitForURL(`${product().webpayUrl}/webpayserver/initTransaction`);
    await page.getByLabel('Número de tarjeta').fill(card);
    await page.getByLabel('Vencimiento (MM/AA)').fill('12/29');
    await page.getByLabel('CVV').fill('123');
    await page.getByRole('button', { name: 'Pagar', exact: true }).click();
  }

  const idOf = (url: string) => ID.exec(url)?.[0] ?? '';

  return {
    product,
    page: () => page,
    openPhone,
    h1,
    visible,
    checkbox,
    check,
    openStepTwo,
    chooseCard,
    payOnWebpay,
    idOf,
  };
}

describe('card payment through Webpay', () => {
  const { product, page, openPhone, h1, visible, checkbox, check, openStepTwo, chooseCard, payOnWebpay, idOf } = journeys();

  it('11.111.111-1 pays a MYPE instalment with the approved VISA card and lands on the voucher', async () => {
    await openPhone();
    await openStepTwo('111111111');
    expect(await checkbox('Cuota 9').isChecked()).toBe(true);

    // Call 9 is held a moment, to look at the screen that waits for it.
    let releaseAuth!: () => void;
    const authHeld = new Promise<void>((resolve) => (releaseAuth = resolve));
    await page().route(`${product().baseUrl}/api/pagoexpress/auth`, async (route) => {
      await authHeld;
      await route.continue();
    });
    // The first post to Webpay goes nowhere (a 204 keeps the browser on the page), as when a browser does not
    // follow the script's submit: the member is left with the button.
    const formUrl = `${product().webpayUrl}/webpayserver/initTransaction`;
    await page().route(formUrl, (route) => route.fulfill({ status: 204 }), { times: 1 });

    await chooseCard();
    await page().waitForURL('**/pagoexpress/PM/webpaymethodpay');
    await visible(h1('Pago con Webpay'));
    await visible(page().getByText('Serás redirigido a Webpay para completar tu pago.'));
    await visible(page().getByText('$156.300').first());
    expect(await page().getByRole('status').innerText()).toBe('Preparando tu pago…');
    await check('webpaymethodpay-preparing');

    const firstPost = page().waitForRequest((request) => request.url() === formUrl && request.method() === 'POST');
    releaseAuth();
    expect((await firstPost).postData()).toMatch(/^token_ws=[0-9a-f]{64}$/);
    await visible(page().getByRole('button', { name: 'Ir a Webpay' }));
    expect(await page().getByRole('status').innerText()).toContain('Redirigiendo a Webpay…');
    await check('webpaymethodpay-redirecting');
    await page().getByRole('button', { name: 'Ir a Webpay' }).click();

    await payOnWebpay(VISA_APPROVED);
    await page().waitForURL(/\/pagoexpress\/successvoucher\/[0-9a-f]{32}\?categoria=PM&factor=WEBPAY$/);
    await visible(h1('Pago exitoso'));
    const id = idOf(page().url());
    const voucherUrl = page().url();

    // Back from the voucher neither posts Webpay's form again nor shows a failure: the voucher again, every time.
    for (let i = 0; i < 3; i++) {
      await page().goBack();
      await page().waitForURL(voucherUrl);
      await visible(h1('Pago exitoso'));
    }
    expect(await page().getByText('ya fue procesada').count()).toBe(0);

    // The screen of a payment Webpay has not confirmed yet, reached here by its URL: its check finds it paid.
    await page().goto(`${product().baseUrl}/pagoexpress/webpayfinal?idTransaccion=${id}&estado=pendiente`);
    await visible(h1('Estamos confirmando tu pago'));
    await check('webpayfinal-pending');
    await page().getByRole('button', { name: 'Consultar nuevamente' }).click();
    await page().waitForURL(`**/pagoexpress/successvoucher/${id}?categoria=PM&factor=WEBPAY`);
    await visible(h1('Pago exitoso'));

    // And the screen of a partial approval, which leads to the voucher of what was paid.
    await page().goto(`${product().baseUrl}/pagoexpress/webpayfinal?idTransaccion=${id}`);
    await visible(h1('Pago parcialmente aprobado'));
    await check('webpayfinal-partial');
    await page().getByRole('link', { name: 'Ver comprobante' }).click();
    await page().waitForURL(`**/pagoexpress/successvoucher/${id}?categoria=PM&factor=WEBPAY`);

    // The instalment is paid: the list starts at the next one.
    await openStepTwo('111111111');
    expect(await checkbox('Cuota 9').count()).toBe(0);
    expect(await checkbox('Cuota 10').isChecked()).toBe(true);

    // The card's money reaches the core through the outbox: the loan's period 9 paid there, once.
    await expect
      .poll(async () => (await coreBooks(product().coreUrl)).loans.find((l) => l.externalId === '630055667788')!.periods.filter((p) => p.totalOutstandingForPeriod > 0).map((p) => p.period))
      .toEqual([10]);
    const books = await coreBooks(product().coreUrl);
    const loan = books.loans.find((l) => l.externalId === '630055667788')!;
    expect(books.writes.filter((w) => w.path.includes(`/loans/${loan.id}/transactions?command=repayment`) && w.statusCode === 200 && w.note !== 'served from cache')).toHaveLength(1);
  });

  it("15.432.876-9's rejected Mastercard ends on 'Pago rechazado', and 'Nuevo Pago' still lists the instalment", async () => {
    await openPhone();
    await openStepTwo('154328769');
    expect(await checkbox('Cuota 5').isChecked()).toBe(true);
    await chooseCard();
    await payOnWebpay(MASTERCARD_REJECTED);

    await page().waitForURL(/\/pagoexpress\/cancelvoucher\/[0-9a-f]{32}$/);
    await visible(h1('Pago rechazado'));
    await visible(page().getByText('Las posibles causas del rechazo son:'));
    expect(await page().getByRole('listitem').allInnerTexts()).toEqual([
      'Error en el ingreso de los datos de tu tarjeta.',
      'Tu tarjeta no tiene saldo o cupo suficiente.',
      'Tu tarjeta no está habilitada para compras por internet.',
    ]);
    await check('cancelvoucher-rejected');
    const id = idOf(page().url());

    await page().getByRole('button', { name: 'Nuevo Pago' }).click();
    await page().waitForURL('**/pagoonline/stepone');
    await page().getByRole('list', { name: 'Tus productos' }).getByRole('button', { name: 'Crédito MYPE' }).click();
    await page().waitForURL('**/pagoexpress/steptwo/PM');
    await visible(checkbox('Cuota 5'));
    expect(await checkbox('Cuota 5').isChecked()).toBe(true);

    // The cancel voucher outside the card path (the method is no longer the card's): '¡Pago Anulado!'.
    await page().goto(`${product().baseUrl}/pagoexpress/cancelvoucher/${id}`);
    await page().waitForURL('**/pagoexpress/cancelMessage');
    await visible(h1('¡Pago Anulado!'));
    await visible(page().getByText('No se realizó ningún cargo. Puedes intentarlo nuevamente cuando quieras.'));
    await check('cancelmessage');
    await expect.poll(async () => (await storedAppState(page())).config.isAuthenticated).toBe(false);
    expect((await storedAppState(page())).selection.family).toBeNull();
  });

  it('14.141.414-3 goes back from the form, returns to it, and cancels it with "Anular compra y volver al comercio"', async () => {
    await openPhone();
    // A single family: step 1 goes straight on to step 2.
    await openStepTwo('141414143', null);
    await chooseCard();
    await page().waitForURL(`${product().webpayUrl}/webpayserver/initTransaction`);

    // Back from Webpay's form: the card screen offers the form again and does not post by itself.
    await page().goBack();
    await page().waitForURL('**/pagoexpress/PM/webpaymethodpay');
    await visible(page().getByText(/Ya iniciaste este pago en Webpay/));
    await page().waitForTimeout(500);
    expect(page().url()).toContain('/pagoexpress/PM/webpaymethodpay');
    await check('webpaymethodpay-resume');
    await page().getByRole('button', { name: 'Ir a Webpay' }).click();

    await page().waitForURL(`${product().webpayUrl}/webpayserver/initTransaction`);
    await page().getByRole('button', { name: 'Anular compra y volver al comercio' }).click();
    await page().waitForURL(/\/pagoexpress\/cancelvoucher\/[0-9a-f]{32}\?estado=anulado$/);
    await visible(h1('¡Pago Anulado!'));
    await visible(page().getByText('No se realizó ningún cargo. Puedes intentarlo nuevamente cuando quieras.'));
    // 'Anulado' once: the title says it, the text does not say it again.
    expect((await page().getByRole('main').innerText()).match(/anul/gi)).toHaveLength(1);
    await check('cancelvoucher-cancelled');

    await page().getByRole('button', { name: 'Nuevo Pago' }).click();
    await page().waitForURL('**/pagoexpress/steptwo/PM');
    await visible(checkbox('Cuota 15'));
  });

  it('sends a return URL that is not the payment host’s to the error page', async () => {
    await openPhone();
    await page().goto(`${product().baseUrl}/pagoexpress/webpayresult?estado=aprobado&idTransaccion=123`);
    await page().waitForURL('**/pagoexpress/error');
    await visible(h1('¡Lo sentimos!'));
  });
});

describe('card payment whose browser never comes back', () => {
  const { product, openPhone, checkbox, openStepTwo, chooseCard, payOnWebpay } = journeys({
    env: { WEBPAY_SETTLE_AFTER_SECONDS: '1', RECONCILE_INTERVAL_SECONDS: '1' },
  });

  /** What the reconciliation job settled, from the API's log. */
  const settledInLog = () =>
    product()
      .output()
      .split('\n')
      .filter((line) => line.includes('"webpay reconciliation"'))
      .reduce((sum, line) => sum + Number((JSON.parse(line) as { settled?: number }).settled ?? 0), 0);

  it('is settled by the reconciliation job, exactly once', async () => {
    const payer = await openPhone();
    await openStepTwo('111111111');
    expect(await checkbox('Cuota 9').isChecked()).toBe(true);
    await chooseCard();

    // The card is approved on Webpay's form, but the browser never gets back to the payment host.
    await payer.route(`${product().baseUrl}/api/pagoexpress/webpay/return`, (route) => route.abort());
    const approved = payer.waitForResponse((response) => response.url().endsWith('/webpayserver/pay'));
    await payOnWebpay(VISA_APPROVED);
    expect((await approved).ok()).toBe(true);
    await payer.context().close();
    expect(settledInLog()).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 4_000));

    // A new tab, from the home: the instalment is paid, and only that one.
    await openPhone();
    await openStepTwo('111111111');
    expect(await checkbox('Cuota 9').count()).toBe(0);
    expect(await checkbox('Cuota 10').isChecked()).toBe(true);
    expect(settledInLog()).toBe(1);
    // Later runs of the job find nothing more to settle.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(settledInLog()).toBe(1);
  });
});

describe('card payment whose Webpay form runs out of time', () => {
  const { product, page, openPhone, h1, visible, check, openStepTwo, chooseCard } = journeys({ webpayEnv: { WEBPAY_SIM_FORM_TIMEOUT_SECONDS: '3' } });

  it('tells 11.111.111-1 the time ran out, not that they cancelled, and that nothing was charged', async () => {
    await openPhone();
    await openStepTwo('111111111');
    await chooseCard();
    await page().waitForURL(`${product().webpayUrl}/webpayserver/initTransaction`);
    // The form's own timer returns to the payment host without TBK_TOKEN: Transbank's timeout.
    await page().waitForURL(/\/pagoexpress\/cancelvoucher\/[0-9a-f]{32}\?estado=expirado$/, { timeout: 20_000 });
    await visible(h1('Pago no completado'));
    await visible(page().getByText('Se agotó el tiempo para completar el pago en Webpay. No se realizó ningún cargo.'));
    expect(await page().getByText(/anul/i).count()).toBe(0);
    await check('cancelvoucher-timeout');
  });
});
