import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { businessNoon } from './product';

const ARTIFACTS = fileURLToPath(new URL('../../.e2e-artifacts/screenshots', import.meta.url));

export interface Viewport {
  width: number;
  height: number;
}
export const PHONE: Viewport = { width: 390, height: 844 };
export const DESKTOP: Viewport = { width: 1280, height: 900 };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** `baseURL`, when given, is what a relative address such as `page.goto('/')` goes to. */
export async function openPage(browser: Browser, viewport: Viewport = PHONE, baseURL?: string): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'es-CL', timezoneId: 'America/Santiago', baseURL });
  // The phone's clock starts at the same business noon as the server's and runs at the real pace, so the timers
  // behave the same whenever the suite runs (opening hours are the server's: Product.setBusinessTime moves them).
  await context.clock.install({ time: businessNoon() });
  await context.clock.resume();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  consoleErrors.set(page, errors);
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return page;
}

// What each page has logged as an error since it opened: a screen that logs one (a CSP refusal, an uncaught
// exception, a failed request) fails its test.
const consoleErrors = new WeakMap<Page, string[]>();

/**
 * For a test that provokes an error on purpose (a cut network, a refused call): the console logged one matching
 * `pattern`, which is then no longer counted against the screen.
 */
export function expectLoggedError(page: Page, pattern: RegExp): void {
  const errors = consoleErrors.get(page) ?? [];
  const index = errors.findIndex((error) => pattern.test(error));
  expect(index, `a console error matching ${pattern} on ${page.url()}`).toBeGreaterThanOrEqual(0);
  errors.splice(index, 1);
}

/** No error in the browser's console since the page opened. */
export function expectNoConsoleErrors(page: Page): void {
  expect((consoleErrors.get(page) ?? []).join('\n'), `console errors on ${page.url()}`).toBe('');
}

/**
 * axe with the WCAG 2.2 AA rule set; a serious or critical violation fails the test, naming the rule and node. The
 * console must be free of errors too.
 */
export async function expectAccessible(page: Page): Promise<void> {
  expectNoConsoleErrors(page);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, `axe on ${page.url()}`).toEqual([]);
}

/** Screenshots land in .e2e-artifacts/screenshots for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const size = page.viewportSize();
  await page.screenshot({ path: join(ARTIFACTS, `${name}-${size?.width ?? 0}.png`), fullPage: true });
}

/** axe, then a screenshot at the phone's and the desktop's size, back at the size the test runs in. */
export async function checkBothSizes(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  const size = page.viewportSize() ?? PHONE;
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await screenshot(page, name);
    // Nothing may stick out sideways on a phone.
    if (viewport === PHONE) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  }
  await page.setViewportSize(size);
}
