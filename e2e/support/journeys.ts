import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchBrowser, openPage, PHONE, type Viewport } from './browser';
import { startProduct, type Product, type ProductOptions } from './product';

export interface Setup {
  product(): Product;
  browser(): Browser;
  /** A new page with a context of its own, at the product's address; the context is closed after the test. */
  open(viewport?: Viewport): Promise<Page>;
}

/**
 * Called inside a describe: one product and one browser for its tests. `options` may be a function for an
 * environment that is only known once the describe's earlier beforeAll hooks have run.
 */
export function setUpProduct(options: ProductOptions | (() => ProductOptions) = {}): Setup {
  let product: Product;
  let browser: Browser;
  let pages: Page[] = [];

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProduct(typeof options === 'function' ? options() : options), launchBrowser()]);
  });
  afterEach(async () => {
    // Every page of the test, even one a failed assertion left open, so the next test starts without it.
    await Promise.all(pages.map((page) => page.context().close()));
    pages = [];
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  return {
    product: () => product,
    browser: () => browser,
    async open(viewport = PHONE) {
      // The walks below go to '/' on the product through this base URL, so they need nothing but the page.
      const page = await openPage(browser, viewport, product.baseUrl);
      pages.push(page);
      return page;
    },
  };
}

/**
 * The page arrives drawn and turns live (`data-live`) once the app has taken it over (decision 037): a screen's page
 * is inert until then; the home takes typing at once, but formats it only then, so a test that reads the field waits.
 */
export async function waitUntilLive(page: Page): Promise<void> {
  await page.locator('#root[data-live]').waitFor({ state: 'attached' });
}

/** The home, as a member does: the RUT typed without dots or dash (the field formats it), then 'Ingresar'. */
export async function enterRut(page: Page, rut: string): Promise<void> {
  await page.goto('/');
  await waitUntilLive(page);
  await page.getByRole('textbox', { name: 'RUT' }).pressSequentially(rut.replace(/[.-]/g, ''));
  await page.getByRole('button', { name: 'Ingresar' }).click();
}

/** The home, then step 1's list of families (a member with several of them). */
export async function reachStepOne(page: Page, rut: string): Promise<void> {
  await enterRut(page, rut);
  await page.waitForURL('**/pagoonline/stepone');
}

export interface StepTwoWay {
  /** The family's code in step 2's address; any family's step 2 when left out. */
  category?: string;
  /**
   * Step 1's partial-payment offer of a consumer credit ('¡Buena noticia!'): 'accept' when the test knows it shows,
   * 'accept if shown' when the walk may meet it or not; by default the walk expects none.
   */
  offer?: 'accept' | 'accept if shown';
}

/**
 * Home → step 1 → the family's button → its step 2. `family` null is a member with a single family, whom step 1
 * sends straight on.
 */
export async function reachStepTwo(page: Page, rut: string, family: string | null, way: StepTwoWay = {}): Promise<void> {
  const stepTwo = `**/pagoexpress/steptwo/${way.category ?? '**'}`;
  if (family === null) {
    await enterRut(page, rut);
  } else {
    await reachStepOne(page, rut);
    await page.getByRole('list', { name: 'Tus productos' }).getByRole('button', { name: family }).click();
    const offer = page.getByRole('dialog', { name: '¡Buena noticia!' });
    if (way.offer === 'accept') {
      await expect.poll(() => offer.isVisible()).toBe(true);
      await offer.getByRole('button', { name: 'Continuar' }).click();
    } else if (way.offer === 'accept if shown') {
      await Promise.race([page.waitForURL(stepTwo), offer.waitFor()]);
      if (await offer.isVisible()) await offer.getByRole('button', { name: 'Continuar' }).click();
    }
  }
  await page.waitForURL(stepTwo);
}

/** Step 2 with what is chosen on it → its pay button (or 'Continuar') → step 3, the payment method. */
export async function continueToStepThree(page: Page, button: string, category: string): Promise<void> {
  const pay = page.getByRole('button', { name: button, exact: true });
  // Enabled only once step 2 has loaded what the member owes and holds a valid selection.
  await expect.poll(() => pay.isEnabled()).toBe(true);
  await pay.click();
  await page.waitForURL(`**/pagoexpress/stepthree/${category}`);
}

/** Step 3 → the cooperative's own checking account ('Cuenta Vista') → 'Continuar' → its login screen. */
export async function chooseOwnAccount(page: Page): Promise<void> {
  // The method's label covers its radio button: the member clicks the label.
  await page.getByText(/^Cuenta Vista/).first().click();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.waitForURL('**/coopmethodpay');
}

const COLUMNS = 'ABCDEFGHIJ';

/** A demo member's coordinate card (demo-members.md): value(column, row) = (n + 7·c + 13·row) mod 100, n the RUT number mod 100. */
export function coordinate(rut: string, cell: string): string {
  const n = Number(rut.replace(/[.-]/g, '').slice(0, -1)) % 100;
  const column = COLUMNS.indexOf(cell.charAt(0));
  const row = Number(cell.slice(1));
  return String((n + 7 * column + 13 * row) % 100).padStart(2, '0');
}

/** What the app keeps in the tab's sessionStorage (lib/app-store.ts), as the member's next screen would read it. */
export async function storedAppState(page: Page): Promise<{ config: { isAuthenticated: boolean }; customer: { token: string }; selection: { family: string | null } }> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('pago-online') ?? '{}').state);
}
