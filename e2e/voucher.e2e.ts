import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBothSizes, DESKTOP, PHONE, screenshot } from './support/browser';
import { readPdf } from '../apps/api/test/support/pdf-text';
import { startSmtpSink, type SmtpSink } from '../apps/api/test/support/smtp-sink';
import { chooseOwnAccount, continueToStepThree, coordinate, reachStepTwo, setUpProduct } from './support/journeys';

// The success voucher's actions: the PDF download, the e-mail (over a real SMTP server) and printing. Each test pays
// an MYPE instalment from the checking account with the coordinate card first, through the screens, from the home.

const PASSWORD = '1234';
const A4 = { width: 595, height: 842 };

describe('success voucher: download, e-mail and print', () => {
  let smtp: SmtpSink;
  // Ahead of setUpProduct's hooks: the product mails to this server, which stops after the product (after-hooks run
  // in reverse).
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const { open } = setUpProduct(() => ({ env: { SMTP_URL: smtp.url } }));
  let page: Page;

  const h1 = (name: string) => page.getByRole('heading', { level: 1, name });
  const visible = (locator: ReturnType<Page['getByRole']>) => expect.poll(() => locator.isVisible()).toBe(true);
  /** The value (dd) of a term (dt) of the voucher. */
  const detail = (term: string) => page.locator('dt', { hasText: term }).first().locator('xpath=following-sibling::dd[1]');

  const check = (name: string) => checkBothSizes(page, `voucher-${name}`);

  /**
   * Home → step 1 → 'Crédito MYPE' → step 2 (oldest instalment chosen) → step 3, Cuenta Vista → login → coordinates
   * → the success voucher. Answers what the voucher shows: the amount paid and the authorisation number.
   */
  async function payMypeInstalment(rut: string): Promise<{ amount: string; authorisation: string }> {
    page = await open(PHONE);
    // Without motion: axe must not judge a button's colour halfway through its transition.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await reachStepTwo(page, rut, 'Crédito MYPE', { category: 'PM' });
    await continueToStepThree(page, 'Pagar cuotas', 'PM');
    await chooseOwnAccount(page);
    await page.getByLabel('Clave de internet').fill(PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL('**/pagoexpress/PM/coopmethodpaychallenge');
    // With both factors the mobile authoriser comes first; the card is one link away.
    const useCard = page.getByRole('button', { name: 'Usar tarjeta de coordenadas' });
    const fields = page.getByRole('textbox', { name: /^Coordenada [A-J][1-5]$/ });
    await expect.poll(async () => (await useCard.isVisible()) || (await fields.count()) === 3).toBe(true);
    if (await useCard.isVisible()) await useCard.click();
    await expect.poll(() => fields.count()).toBe(3);
    for (const field of await fields.all()) {
      const label = await field.evaluate((input: HTMLInputElement) => input.labels?.[0]?.textContent ?? '');
      await field.fill(coordinate(rut, /[A-J][1-5]/.exec(label)?.[0] ?? ''));
    }
    await page.getByRole('button', { name: 'Autorizar' }).click();
    await page.waitForURL(/\/pagoexpress\/successvoucher\/[0-9a-f]{32}\?categoria=PM&factor=TCOO$/);
    await visible(h1('Pago exitoso'));

    const amount = (await page.getByText('Total pagado').locator('xpath=following-sibling::p[1]').innerText()).trim();
    const authorisation = (await detail('Nº de autorización').innerText()).trim();
    expect(amount).toMatch(/^\$\d{1,3}(\.\d{3})+$/);
    expect(authorisation).not.toBe('');
    return { amount, authorisation };
  }

  it("shows the payment's detail, and 'Descargar' saves download.pdf, an A4 page with the amount and the authorisation number", async () => {
    const { amount, authorisation } = await payMypeInstalment('11.111.111-1');
    expect(amount).toBe('$156.300');
    // The voucher's detail, all from call 7.
    await visible(page.getByText('Crédito MYPE'));
    await visible(page.getByText('Cuota Nº', { exact: false }));
    expect(await detail('Cantidad de cuotas').innerText()).toBe('1');
    expect(await detail('Medio de pago').innerText()).toBe('Débito');
    expect(await detail('Cuenta de pago').innerText()).toMatch(/^Cuenta Vista \*{4}\d{4}$/);
    expect(await detail('Fecha y hora').innerText()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(await detail('Autorizado con').innerText()).toBe('Tarjeta de coordenadas');
    expect(await detail('RUT del socio').innerText()).toBe('**.***.111-1');
    await check('success');
    // Every field of the screen, by its label and value, as the PDF must say them too.
    const fields = await page.locator('dl > div').evaluateAll((rows) =>
      rows.map((row) => [row.querySelector('dt')?.textContent ?? '', row.querySelector('dd')?.textContent ?? ''] as const),
    );
    expect(fields.map(([label]) => label)).toEqual([
      'Cuota Nº 9',
      'Nº de autorización',
      'Cantidad de cuotas',
      'Fecha y hora',
      'Medio de pago',
      'Cuenta de pago',
      'Autorizado con',
      'RUT del socio',
      'Nº de transacción',
    ]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('download.pdf');
    expect(await download.failure()).toBeNull();
    const pdf = await readPdf(new Uint8Array(await readFile(await download.path())));
    expect(pdf.pages).toEqual([A4]);
    expect(pdf.text).toContain(amount);
    expect(pdf.text).toContain(authorisation);
    // One vocabulary: the screen's labels and values, word for word, and nothing in another dialect.
    for (const [label, value] of fields) {
      expect(pdf.text).toContain(label);
      expect(pdf.text).toContain(value);
    }
    expect(pdf.text).toContain('Crédito MYPE Nº ****');
    for (const dialect of ['N°', 'RUT deudor', 'CREDITO MYPE', 'Debito', '11.111.111-1']) expect(pdf.text).not.toContain(dialect);
    // Nothing went wrong on screen either.
    expect(await page.getByText('No pudimos descargar tu comprobante').count()).toBe(0);
  });

  it("'Enviar por email' refuses an invalid address, then mails the voucher with download.pdf over SMTP", async () => {
    const { amount, authorisation } = await payMypeInstalment('15.432.876-9');
    await page.getByRole('button', { name: 'Enviar por email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar comprobante por email' });
    await visible(dialog);
    const field = dialog.getByRole('textbox', { name: 'Correo electrónico' });
    const enviar = dialog.getByRole('button', { name: 'Enviar' });
    expect(await field.inputValue()).toBe('');
    expect(await enviar.isDisabled()).toBe(true);
    await check('email-empty');

    await field.pressSequentially('camila.rojas@example');
    await visible(dialog.getByText('Correo inválido'));
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await enviar.isDisabled()).toBe(true);
    await check('email-invalid');

    await field.pressSequentially('.cl');
    await expect.poll(() => dialog.getByText('Correo inválido').count()).toBe(0);
    expect(await enviar.isEnabled()).toBe(true);
    await enviar.click();

    const status = dialog.getByRole('status');
    await expect
      .poll(() => status.innerText())
      .toBe('Su comprobante ha sido enviado con éxito al correo cam*********@example.cl');
    await check('email-sent');

    await expect.poll(() => smtp.received.length).toBeGreaterThan(0);
    const mail = smtp.received.find((m) => (m.to && 'text' in m.to ? m.to.text : '') === 'camila.rojas@example.cl');
    expect(mail).toBeDefined();
    const attachment = mail?.attachments.find((a) => a.filename === 'download.pdf');
    expect(attachment?.contentType).toBe('application/pdf');
    const pdf = await readPdf(new Uint8Array(attachment?.content ?? []));
    expect(pdf.pages).toEqual([A4]);
    expect(pdf.text).toContain(amount);
    expect(pdf.text).toContain(authorisation);
    // The e-mail's text says what the screen says, with the RUT masked as on the screen: never the full RUT.
    const text = mail?.text ?? '';
    for (const line of ['Medio de pago: Débito', 'RUT del socio: **.***.876-9', 'Autorizado con: Tarjeta de coordenadas', 'Cantidad de cuotas: 1', 'Crédito MYPE Nº ****']) {
      expect(text).toContain(line);
    }
    for (const dialect of ['15.432.876-9', '15432876', 'RUT deudor', 'N°', 'CREDITO']) {
      expect(text).not.toContain(dialect);
      expect(String(mail?.html ?? '')).not.toContain(dialect);
    }

    await dialog.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await visible(h1('Pago exitoso'));
  });

  it('prints the voucher alone, on one A4 page', async () => {
    const { amount } = await payMypeInstalment('11.111.111-1');
    // 'Imprimir' opens the browser's print dialog, which a headless browser cannot show: the call is counted.
    await page.evaluate(() => {
      const counted = window as Window & { prints?: number };
      counted.prints = 0;
      window.print = () => {
        counted.prints = (counted.prints ?? 0) + 1;
      };
    });
    await page.getByRole('button', { name: 'Imprimir' }).click();
    expect(await page.evaluate(() => (window as Window & { prints?: number }).prints)).toBe(1);

    await page.emulateMedia({ media: 'print', reducedMotion: 'reduce' });
    await visible(h1('Pago exitoso'));
    await visible(page.getByText(amount, { exact: true }).first());
    await visible(page.getByText('Comprobante de pago', { exact: false }));
    for (const hidden of [
      page.getByRole('banner'),
      page.getByRole('contentinfo'),
      page.getByRole('link', { name: 'Saltar al contenido' }),
      page.getByRole('button', { name: 'Descargar' }),
      page.getByRole('button', { name: 'Enviar por email' }),
      page.getByRole('button', { name: 'Imprimir' }),
      page.getByRole('button', { name: 'Nuevo Pago' }),
      page.getByRole('link', { name: 'Ir al Home' }),
    ]) {
      expect(await hidden.isVisible()).toBe(false);
    }
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await screenshot(page, 'voucher-print');
    }

    const printed = await page.pdf({ format: 'A4' });
    // Beside the screenshots, for a person to look at the paper.
    await mkdir(fileURLToPath(new URL('../.e2e-artifacts', import.meta.url)), { recursive: true });
    await writeFile(fileURLToPath(new URL('../.e2e-artifacts/voucher-print.pdf', import.meta.url)), printed);
    const pdf = await readPdf(new Uint8Array(printed));
    // One page. Chromium sizes it in whole CSS pixels: 794 × 1123 px, 595.5 × 842.25 points.
    expect(pdf.pages).toHaveLength(1);
    expect(Math.abs((pdf.pages[0]?.width ?? 0) - A4.width)).toBeLessThanOrEqual(1);
    expect(Math.abs((pdf.pages[0]?.height ?? 0) - A4.height)).toBeLessThanOrEqual(1);
    expect(pdf.text).toContain('Pago exitoso');
    expect(pdf.text).toContain(amount);
    expect(pdf.text).not.toContain('Nuevo Pago');
    expect(pdf.text).not.toContain('Sitio seguro');
    await page.emulateMedia({ media: 'screen' });
    await visible(page.getByRole('button', { name: 'Nuevo Pago' }));
  });

  it('keeps the verification code inside its box, and the verification page speaks the voucher’s words', async () => {
    await payMypeInstalment('11.111.111-1');
    const box = page.getByRole('region', { name: 'Verifica este comprobante' });
    const code = box.getByText(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      const [outer, inner] = [await box.boundingBox(), await code.boundingBox()];
      expect(inner!.x + inner!.width, `the code at ${viewport.width} px`).toBeLessThanOrEqual(outer!.x + outer!.width);
      expect(await code.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    await page.setViewportSize(PHONE);
    await check('verification-box');

    const shown = (await code.innerText()).replace(/\s/g, '');
    await box.getByRole('link').click();
    await page.waitForURL('**/comprobante/verificar/**');
    await visible(h1('Comprobante verificado'));
    for (const [term, value] of <[string, string][]>[
      ['Total pagado', '$156.300'],
      ['Medio de pago', 'Débito'],
      ['RUT del socio', '**.***.111-1'],
      ['Código de verificación', shown],
    ]) {
      expect(await detail(term).innerText()).toBe(value);
    }
    expect(await detail('Producto pagado').innerText()).toMatch(/^Crédito MYPE Nº \*{4}\d{4}$/);
    await check('verified');
  });
});
