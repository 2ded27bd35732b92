import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, openPage, PHONE, screenshot, type Viewport } from './support/browser';
import { chooseOwnAccount, continueToStepThree, reachStepTwo } from './support/journeys';
import { E2E_ADMIN_TOKEN, freePort, startProduct, type Product } from './support/product';
import { listar, oldestOf, payOwnAccount, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from '../apps/api/test/reliability/flows';
import { fetchTarget } from '../apps/api/test/reliability/http';

// The operator console as staff use it: the production build, its own operator port (as in production), sign-in at
// the sandbox's identity provider, each role doing its work and refused the rest, four eyes across two browsers.
const DESKTOP: Viewport = { width: 1280, height: 900 };
const TABLET: Viewport = { width: 820, height: 1180 };

const OPERATORS = {
  agente: { clave: 'agente-demo', nombre: 'Ana Agente' },
  operaciones: { clave: 'operaciones-demo', nombre: 'Óscar Operaciones' },
  operaciones2: { clave: 'operaciones2-demo', nombre: 'Olga Operaciones' },
  finanzas: { clave: 'finanzas-demo', nombre: 'Fernanda Finanzas' },
  finanzas2: { clave: 'finanzas2-demo', nombre: 'Felipe Finanzas' },
  auditor: { clave: 'auditor-demo', nombre: 'Aurora Auditora' },
  admin: { clave: 'admin-demo', nombre: 'Alberto Admin' },
} as const;
type Usuario = keyof typeof OPERATORS;

/** The console shows states and families in words: none of the server's codes or raw records reach the screen. */
async function expectNoCodes(page: Page): Promise<void> {
  const text = await page.locator('main').innerText();
  for (const code of [/\b(pending|posting|booked|refused|set_aside|refund_due|refunded|committed|used|expired)\b/, /\b(PC|PM|HI|CP|TC|AH)\b/, /motivo \d+/, /[{}]/, /\$NaN/]) {
    expect(text, String(code)).not.toMatch(code);
  }
}

describe('the operator console', () => {
  let product: Product;
  let browser: Browser;
  let consoleUrl = '';
  let operatorOrigin = '';
  let contexts: BrowserContext[] = [];

  // Webpay as the API reaches it: the simulator behind a relay that refuses refunds while `refuseRefunds` is on, so a
  // payment can be set aside as when Transbank refuses to give money back.
  let relay: Server;
  let refuseRefunds = false;

  beforeAll(async () => {
    const [adminPort, relayPort] = [await freePort(), await freePort()];
    // localhost, not 127.0.0.1: the session cookie is Secure, which a browser keeps over plain HTTP on localhost only.
    operatorOrigin = `http://localhost:${adminPort}`;
    consoleUrl = `${operatorOrigin}/operador/`;
    let simUrl = '';
    relay = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (refuseRefunds && req.method === 'POST' && req.url?.endsWith('/refunds')) {
          res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error_message: 'Transaction cannot be refunded' }));
          return;
        }
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
        fetch(`${simUrl}${req.url}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }).then(
          async (answer) => res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer())),
          () => res.writeHead(502).end(),
        );
      });
    });
    await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve));
    [product, browser] = await Promise.all([
      startProduct({ env: { ADMIN_PORT: String(adminPort), OPERATOR_BASE_URL: operatorOrigin, WEBPAY_BASE_URL: `http://127.0.0.1:${relayPort}` } }),
      launchBrowser(),
    ]);
    simUrl = product.webpayUrl;
  }, 300_000);
  afterEach(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    contexts = [];
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await new Promise((resolve) => relay?.close(resolve));
  });

  const errorsOf = new WeakMap<Page, string[]>();

  /** A browser of the operator's own, signed in through the sandbox provider with the second factor. */
  async function signIn(usuario: Usuario, viewport: Viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: 'es-CL', timezoneId: 'America/Santiago' });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    errorsOf.set(page, errors);
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('favicon.ico')) errors.push(`${message.text()} (${message.location().url})`);
    });
    await page.goto(consoleUrl);
    await page.getByRole('link', { name: 'Ingresar' }).click();
    await page.getByLabel('Usuario').fill(usuario);
    await page.getByLabel('Clave').fill(OPERATORS[usuario].clave);
    await page.getByLabel('Código de verificación (segundo factor)').fill('123456');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inicio' }).waitFor();
    expect(await page.getByText(OPERATORS[usuario].nombre).first().isVisible()).toBe(true);
    return page;
  }

  /** The operator API called with the browser's own session (cookie and CSRF token): what a forged request could do. */
  async function callAs(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<number> {
    const session = await page.request.get(`${operatorOrigin}/operador/api/sesion`);
    const csrf = ((await session.json()) as { operadorResponse: { sesion: { csrf: string } } }).operadorResponse.sesion.csrf;
    const res = await page.request.fetch(`${operatorOrigin}${path}`, { method, headers: { 'x-csrf-token': csrf, origin: operatorOrigin }, ...(data === undefined ? {} : { data }) });
    return res.status();
  }

  const navLinks = async (page: Page) => (await page.getByRole('navigation', { name: 'Secciones' }).getByRole('link').allTextContents()).map((t) => t.trim());

  /** axe, then screenshots at 1280 and 820 with nothing sticking out sideways. */
  async function look(page: Page, name: string): Promise<void> {
    expect(errorsOf.get(page) ?? []).toEqual([]);
    await expectAccessible(page);
    for (const viewport of [DESKTOP, TABLET]) {
      await page.setViewportSize(viewport);
      await screenshot(page, `console-${name}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
    }
    await page.setViewportSize(DESKTOP);
  }

  it('shows the sign-in, and the sandbox page lists the demo operators', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'es-CL' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(consoleUrl);
    await page.getByRole('heading', { level: 1, name: 'Ingreso de operadores' }).waitFor();
    await look(page, 'ingreso');
    await page.goto(`${product.baseUrl}/sandbox`);
    await page.getByRole('heading', { name: 'Operadores de demostración' }).waitFor();
    for (const [usuario, { clave }] of Object.entries(OPERATORS)) {
      expect(await page.getByRole('cell', { name: usuario, exact: true }).count(), usuario).toBe(1);
      expect(await page.getByRole('cell', { name: clave, exact: true }).count(), clave).toBe(1);
    }
    // The console is not on the members' listener.
    expect((await page.request.get(`${product.baseUrl}/operador/`)).status()).toBe(404);
  });

  it('lets a call-centre agent find a member and unblock the password, and refuses the rest', async () => {
    const page = await signIn('agente');
    expect(await navLinks(page)).toEqual(['Inicio', 'Socios', 'Pagos', 'Aprobaciones', 'Tokens y roles']);
    await look(page, 'inicio');
    await page.getByRole('link', { name: 'Socios' }).click();
    await page.getByLabel('RUT del socio').fill('13.579.246-2');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.getByRole('button', { name: 'Desbloquear clave' }).waitFor();
    await look(page, 'socio');
    // Nothing happens in one click: a confirmation says what will, and asks for the reason.
    await page.getByRole('button', { name: 'Desbloquear clave' }).click();
    const confirm = page.getByRole('dialog', { name: /^Desbloquear la clave de / });
    await confirm.getByText('podrá volver a ingresar su clave').waitFor();
    expect(await confirm.getByRole('button', { name: 'Desbloquear clave' }).isDisabled()).toBe(true);
    await confirm.getByLabel('Motivo (queda en el registro de auditoría)').fill('El socio llamó y confirmó su identidad');
    await look(page, 'socio-confirmar-desbloqueo');
    await confirm.getByRole('button', { name: 'Desbloquear clave' }).click();
    await page.getByText('Clave desbloqueada').waitFor();
    // Without a reason the server refuses it too.
    expect(await callAs(page, 'POST', '/admin/socios/13579246-2/desbloquear-clave')).toBe(400);
    expect(await page.getByText('Activa', { exact: true }).first().isVisible()).toBe(true);

    // A member chooses what to pay (a transaction is opened); the agent sees its timeline.
    const member = await openPage(browser, PHONE, product.baseUrl);
    contexts.push(member.context());
    await reachStepTwo(member, '111111111', 'Crédito MYPE', { category: 'PM' });
    await continueToStepThree(member, 'Pagar cuotas', 'PM');
    await chooseOwnAccount(member);
    await page.getByLabel('RUT del socio').fill('11.111.111-1');
    await page.getByRole('button', { name: 'Buscar' }).click();
    const transactions = page.getByRole('region', { name: 'Transacciones del socio' });
    await transactions.getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: 'Transacción' }).waitFor();
    await page.getByRole('heading', { name: 'Línea de tiempo' }).waitFor();
    await page.getByText('Selección', { exact: true }).waitFor();
    // The agent reads the member's family names and states in words, never the codes.
    await page.getByRole('heading', { name: /^Crédito MYPE · \$[\d.]+ · Pendiente de pago$/ }).waitFor();
    await page.getByRole('heading', { name: /^Crédito MYPE Nº \d+$/ }).first().waitFor();
    await expectNoCodes(page);
    await look(page, 'transaccion');

    expect(await callAs(page, 'GET', '/admin/parametros')).toBe(403);
    expect(await callAs(page, 'PUT', '/admin/parametros/Mantencion', { valor: '1' })).toBe(403);
    expect(await callAs(page, 'GET', '/admin/conciliacion/webpay?fecha=20260105')).toBe(403);
    expect(await callAs(page, 'GET', '/admin/auditoria')).toBe(403);
    expect(await callAs(page, 'POST', '/admin/tokens', { nombre: 'intruso', alcances: ['importacion'] })).toBe(403);
    expect(await callAs(page, 'POST', '/admin/importacion', { corte: new Date().toISOString(), socios: [{}] })).toBe(403);
  }, 180_000);

  it('applies maintenance only when a second operations operator approves it in another browser; the audit trail shows both', async () => {
    const maker = await signIn('operaciones');
    expect(await navLinks(maker)).toEqual(['Inicio', 'Socios', 'Pagos', 'Parámetros', 'Aprobaciones', 'Carga nocturna', 'Tokens y roles']);
    await maker.getByRole('link', { name: 'Parámetros' }).click();
    await maker.getByRole('button', { name: 'Cambiar Mantencion' }).click();
    await maker.getByLabel('Nuevo valor de Mantencion').fill('1');
    // The proposal shows the current value, the new one and what each does, and asks why.
    const proposal = maker.getByRole('form', { name: 'Cambio de Mantencion' });
    await proposal.getByText('Valor actual: 0').waitFor();
    await proposal.getByText('Sin mantención: los socios pueden pagar.').waitFor();
    await proposal.getByText('Sitio en mantención: ningún socio puede pagar.').waitFor();
    await proposal.getByLabel('Motivo (queda en el registro de auditoría)').fill('Mantención del core esta noche');
    await look(maker, 'parametros-propuesta');
    await proposal.getByRole('button', { name: 'Proponer cambio' }).click();
    await maker.getByText('Mantencion = 1: propuesto. Se aplica cuando otro operador lo apruebe.').waitFor();
    await maker.getByText('Su propuesta: la decide otro operador').waitFor();
    await look(maker, 'parametros');
    // The members still see no maintenance.
    expect(await callAs(maker, 'GET', '/admin/parametros')).toBe(200);
    const before = await (await maker.request.get(`${operatorOrigin}/admin/parametros`)).json();
    expect(before.parametrosResponse.parametros.find((p: { nombre: string }) => p.nombre === 'Mantencion').valor).toBe('0');
    // Refused what operations lacks.
    expect(await callAs(maker, 'GET', '/admin/auditoria')).toBe(403);
    expect(await callAs(maker, 'GET', '/admin/conciliacion/webpay?fecha=20260105')).toBe(403);
    expect(await callAs(maker, 'POST', '/admin/tokens', { nombre: 'intruso', alcances: ['webpay.devolver'] })).toBe(403);
    expect(await callAs(maker, 'POST', '/admin/socios/13579246-2/desbloquear-clave')).toBe(403);

    const checker = await signIn('operaciones2');
    await checker.getByRole('link', { name: 'Aprobaciones' }).click();
    await checker.getByRole('button', { name: 'Aprobar Mantencion = 1 (antes 0)' }).waitFor();
    await checker.getByText('Qué hace: Sitio en mantención: ningún socio puede pagar.').waitFor();
    await checker.getByText('Motivo: Mantención del core esta noche').waitFor();
    await look(checker, 'aprobaciones');
    await checker.getByRole('button', { name: 'Aprobar Mantencion = 1 (antes 0)' }).click();
    await checker.getByText('Mantencion = 1 (antes 0): aprobado y aplicado.').waitFor();
    await checker.getByRole('cell', { name: 'Olga Operaciones' }).waitFor();

    const after = await (await maker.request.get(`${operatorOrigin}/admin/parametros`)).json();
    expect(after.parametrosResponse.parametros.find((p: { nombre: string }) => p.nombre === 'Mantencion').valor).toBe('1');

    const auditor = await signIn('auditor');
    await auditor.getByRole('link', { name: 'Auditoría' }).click();
    await auditor.getByLabel('Tipo de evento').selectOption('cambio.aprobado');
    await auditor.getByRole('button', { name: 'Filtrar' }).click();
    // Once the filter applied, only the approval's line: both names on it.
    await expect.poll(() => auditor.getByRole('cell', { name: 'admin.parametro.actualizado' }).count()).toBe(0);
    await auditor.getByRole('cell', { name: 'Óscar Operaciones · aprobó Olga Operaciones' }).waitFor();
    await look(auditor, 'auditoria');
    const csv = await auditor.getByRole('link', { name: 'Descargar CSV' }).getAttribute('href');
    const download = await auditor.request.get(`${operatorOrigin}${csv}`);
    expect(download.status()).toBe(200);
    expect(await download.text()).toContain('Óscar Operaciones / Olga Operaciones');
    // The auditor reads; nothing else.
    expect(await callAs(auditor, 'POST', '/admin/cambios/00000000-0000-4000-8000-000000000000/aprobar')).toBe(404);
    expect(await callAs(auditor, 'PUT', '/admin/parametros/Mantencion', { valor: '0' })).toBe(403);
    expect(await callAs(auditor, 'POST', '/admin/socios/13579246-2/desbloquear-clave')).toBe(403);

    // Back to no maintenance for the other tests: the bootstrap token applies at once.
    const reset = await fetch(`${operatorOrigin}/admin/parametros/Mantencion`, { method: 'PUT', headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ valor: '0' }) });
    expect(reset.status).toBe(200);
  }, 180_000);

  it('shows finance the reconciliation with Webpay and the core, with CSV, and refuses the rest', async () => {
    const page = await signIn('finanzas');
    expect(await navLinks(page)).toEqual(['Inicio', 'Socios', 'Pagos', 'Aprobaciones', 'Conciliación', 'Cierre del día', 'Tokens y roles']);
    await page.getByRole('link', { name: 'Conciliación' }).click();
    await page.getByRole('heading', { name: 'Webpay' }).waitFor();
    await page.getByRole('heading', { name: 'Core bancario' }).waitFor();
    await expect.poll(() => page.getByText(/conciliadas/).count()).toBe(2);
    await look(page, 'conciliacion');
    const href = await page.getByRole('link', { name: 'Descargar CSV de Webpay' }).getAttribute('href');
    const csv = await page.request.get(`${operatorOrigin}${href}`);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toMatch(/^fecha,ordenCompra,idTransaccion,estadoWebpay,estadoPago,monto,resultado/);
    expect(await callAs(page, 'PUT', '/admin/parametros/Mantencion', { valor: '1' })).toBe(403);
    expect(await callAs(page, 'POST', '/admin/tokens', { nombre: 'intruso', alcances: ['parametros.cambiar'] })).toBe(403);
    expect(await callAs(page, 'GET', '/admin/auditoria')).toBe(403);
  });

  it('refunds a set-aside card payment only when a second finance operator approves it in another browser; the audit trail shows both', async () => {
    // A member pays the same deposit on two Webpay forms: the first applies, Webpay refuses to give the second back.
    const member = fetchTarget(product.baseUrl);
    const rut = '11111111-1';
    const { token, productos } = await listar(member, rut);
    const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'AH')!, 1, 7_000)];
    const { idTransaccion } = await seleccionar(member, token, rut, producto);
    const first = await startCard(member, { token, rut }, { idTransaccion, producto });
    const second = await startCard(member, { token, rut }, { idTransaccion, producto });
    expect(await postReturn(member, await useCardForm(product.webpayUrl, first.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    refuseRefunds = true;
    await postReturn(member, await useCardForm(product.webpayUrl, second.webpayToken, { card: VISA_APPROVED }));
    refuseRefunds = false;

    const maker = await signIn('finanzas');
    await maker.getByRole('link', { name: 'Conciliación' }).click();
    const charges = maker.getByRole('region', { name: 'Cobros con tarjeta apartados', exact: true }).first();
    await charges.getByRole('button', { name: /^Proponer devolución de la orden / }).click();
    await charges.getByLabel('Motivo de la devolución').fill('Cobro doble: el socio pagó dos veces el mismo depósito');
    await charges.getByRole('button', { name: 'Proponer', exact: true }).click();
    await maker.getByText(/^Devolución de \$7\.000 \(orden PO[0-9a-f]+\) propuesta/).waitFor();
    await charges.getByText('Esperando aprobación').waitFor();
    await look(maker, 'conciliacion-devolucion');
    // The maker cannot approve it, not even by calling the API with the browser's session.
    await maker.getByRole('link', { name: 'Aprobaciones' }).click();
    await maker.getByText('Su propuesta: la decide otro operador').waitFor();
    const inbox = (await (await maker.request.get(`${operatorOrigin}/admin/cambios`)).json()) as { cambiosResponse: { cambios: { id: string; tipo: string }[] } };
    const refund = inbox.cambiosResponse.cambios.find((c) => c.tipo === 'devolucion_webpay')!;
    expect(await callAs(maker, 'POST', `/admin/cambios/${refund.id}/aprobar`)).toBe(403);

    const checker = await signIn('finanzas2');
    await checker.getByRole('link', { name: 'Aprobaciones' }).click();
    const approve = checker.getByRole('button', { name: /^Aprobar Devolución en Webpay de la orden PO[0-9a-f]+ \(\$7\.000\): Cobro doble/ });
    await approve.waitFor();
    await look(checker, 'aprobaciones-devolucion');
    // Webpay refuses the first approved refund: the checker reads it, with Webpay's reason, and the charge stays set aside.
    refuseRefunds = true;
    await approve.click();
    await checker.getByText(/: aprobado, pero Webpay rechazó la devolución sin un motivo reconocido\. El cobro sigue apartado y puede proponerse de nuevo\.$/).waitFor();
    refuseRefunds = false;
    await checker.getByRole('cell', { name: 'Aprobado, pero no pudo aplicarse: Webpay rechazó la devolución sin un motivo reconocido' }).waitFor();
    await look(checker, 'aprobaciones-devolucion-rechazada');
    // Still actionable: finance proposes it again, and the second approval gives the money back.
    await maker.getByRole('link', { name: 'Conciliación' }).click();
    await charges.getByRole('button', { name: /^Proponer devolución de la orden / }).click();
    await charges.getByLabel('Motivo de la devolución').fill('Cobro doble: Webpay rechazó la primera devolución');
    await charges.getByRole('button', { name: 'Proponer', exact: true }).click();
    await charges.getByText('Esperando aprobación').waitFor();
    await checker.reload();
    const approveAgain = checker.getByRole('button', { name: /^Aprobar Devolución en Webpay de la orden PO[0-9a-f]+ \(\$7\.000\): Cobro doble: Webpay rechazó/ });
    await approveAgain.click();
    await checker.getByText(/: aprobado; Webpay devolvió \$7\.000\.$/).waitFor();

    // The charge is given back once; its transaction shows it, with both names in its timeline.
    await checker.goto(`${consoleUrl}transacciones/${idTransaccion}`);
    const cardCharges = checker.getByRole('region', { name: 'Cobros con tarjeta', exact: true }).first();
    await cardCharges.getByRole('cell', { name: 'Cobrado y devuelto' }).waitFor();
    await cardCharges.getByRole('cell', { name: 'Cobrado y aplicado' }).waitFor();
    await checker.getByText('Devolución manual rechazada por Webpay', { exact: true }).waitFor();
    await checker.getByText('Devolución manual pedida a Webpay', { exact: true }).first().waitFor();
    await look(checker, 'transaccion-devolucion');
    expect(await checker.getByText('por Fernanda Finanzas · aprobado por Felipe Finanzas').count()).toBeGreaterThan(0);
    await expectNoCodes(checker);
    await maker.getByRole('link', { name: 'Conciliación' }).click();
    // The maker's screen is still the one the second proposal was made on: it is read afresh.
    await maker.reload();
    await maker.getByText('No hay cobros apartados.').waitFor();
    // Others may not propose a refund.
    const agente = await signIn('agente');
    expect(await callAs(agente, 'POST', `/admin/webpay/PO0123456789abcdef/devolver`, { motivo: 'sin permiso' })).toBe(403);
  }, 180_000);

  it('lets operations upload the nightly load and see the rejected rows', async () => {
    const page = await signIn('operaciones');
    await page.getByRole('link', { name: 'Carga nocturna' }).click();
    const dir = join(tmpdir(), `console-e2e-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'carga.csv');
    writeFileSync(
      file,
      'rut,nombre,correo,numeroCuenta,saldoCuenta,familia,numeroProducto,numeroCuota,monto,montoPendiente,pagoMinimo,fechaVencimiento,medioPago\n' +
        '5.126.663-3,Ana Soto,ana@example.cl,000099990001,250000,PC,410055550001,1,40000,,,20301201,\n' +
        '12.345.678-0,RUT malo,,,,PC,410055550002,1,1000,,,20301201,\n',
    );
    await page.getByLabel('Archivo del core (.csv o .json)').setInputFiles(file);
    await page.getByLabel('Corte: cuándo el core tomó el extracto').fill('2026-01-05T06:00');
    await page.getByRole('button', { name: 'Cargar' }).click();
    await page.getByText('2 socios recibidos, 1 aceptados, 1 rechazados.').waitFor();
    await page.getByRole('cell', { name: /RUT inválido/ }).waitFor();
    await look(page, 'carga');
  });

  it('gives operations a token for the nightly load only once an administrator approves it; the administrator revokes it', async () => {
    const asking = await signIn('operaciones');
    await asking.getByRole('link', { name: 'Tokens y roles' }).click();
    await asking.getByLabel('Nombre (p. ej. carga-nocturna)').fill('carga-nocturna');
    // Only what the operator's own roles allow is offered, and nothing is ticked until the operator ticks it.
    expect(await asking.getByRole('checkbox', { name: 'Devolver cobros de Webpay' }).count()).toBe(0);
    for (const box of await asking.getByRole('checkbox').all()) expect(await box.isChecked()).toBe(false);
    await asking.getByRole('checkbox', { name: 'Carga nocturna' }).check();
    await asking.getByRole('button', { name: 'Pedir token' }).click();
    const secret = (await asking.locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^pot_/);
    await asking.getByRole('cell', { name: 'Esperando aprobación' }).waitFor();
    await look(asking, 'tokens-pedido');
    const load = () => fetch(`${operatorOrigin}/admin/importacion`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ corte: new Date().toISOString(), socios: [{}] }) });
    expect((await load()).status).toBe(401);

    const page = await signIn('admin');
    expect(await navLinks(page)).toEqual(['Inicio', 'Aprobaciones', 'Auditoría', 'Tokens y roles']);
    // Nothing beyond the administrator's own roles, and never their own roles.
    expect(await callAs(page, 'POST', '/admin/tokens', { nombre: 'puerta', alcances: ['parametros.cambiar'] })).toBe(403);
    expect(await callAs(page, 'PUT', '/admin/operadores/admin/roles', { roles: ['admin', 'finanzas'] })).toBe(403);
    await page.getByRole('link', { name: 'Aprobaciones' }).click();
    await page.getByRole('button', { name: 'Aprobar Token carga-nocturna que actúa por Óscar Operaciones: Carga nocturna' }).click();
    await page.getByText('Token carga-nocturna que actúa por Óscar Operaciones: Carga nocturna: aprobado y aplicado.').waitFor();
    expect((await load()).status).toBe(200);
    await page.getByRole('link', { name: 'Tokens y roles' }).click();
    await page.getByRole('cell', { name: 'Activo: aprobado por Alberto Admin' }).waitFor();
    await page.getByRole('heading', { name: 'Roles de operadores' }).waitFor();
    await look(page, 'tokens');
    await page.getByRole('button', { name: 'Revocar carga-nocturna' }).click();
    await page.getByText('Token carga-nocturna revocado.').waitFor();
    expect((await load()).status).toBe(401);
    expect(await callAs(page, 'GET', '/admin/socios/11111111-1')).toBe(403);
    expect(await callAs(page, 'PUT', '/admin/parametros/Mantencion', { valor: '1' })).toBe(403);
  }, 180_000);

  it('finds a payment from either side: the payer’s page, the transaction’s payer, the payments list; the auditor finds its trail; a screen a role lacks is refused', async () => {
    // 19.191.919-K pays a participation share of 11.111.111-1's from their own account.
    const member = fetchTarget(product.baseUrl);
    const { token, productos } = await listar(member, '11111111-1');
    const producto = [oldestOf(productos.find((p) => p.tipoFamiliaProducto === 'CP')!, 1)];
    const { idTransaccion } = await seleccionar(member, token, '11111111-1', producto);
    await payOwnAccount(member, { token, memberRut: '11111111-1', payerRut: '19191919-K', clave: '1234' });

    const page = await signIn('agente');
    await page.getByRole('link', { name: 'Socios' }).click();
    await page.getByLabel('RUT del socio').fill('19.191.919-K');
    await page.getByRole('button', { name: 'Buscar' }).click();
    const paidForOthers = page.getByRole('region', { name: 'Pagos a otros socios' }).first();
    await paidForOthers.getByRole('cell', { name: /\*+111-1$/ }).waitFor();
    await paidForOthers.getByRole('cell', { name: 'Pagada' }).waitFor();
    expect(await page.getByText('El socio no tiene transacciones.', { exact: true }).count()).toBe(0);
    await look(page, 'socio-pagador');
    await paidForOthers.getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: 'Transacción' }).waitFor();
    await page.getByText(/Pagador:.*919-K \(otro socio\) · cuenta debitada \S*\d{4}/).waitFor();

    await page.getByRole('link', { name: 'Pagos' }).click();
    await page.getByLabel('RUT del socio o del pagador').fill('19.191.919-K');
    await page.getByRole('button', { name: 'Buscar' }).click();
    const found = page.getByRole('region', { name: 'Pagos encontrados' }).last();
    await found.getByText(`Transacción ${idTransaccion}`).waitFor();
    await page.getByText('1 pago · página 1 de 1').waitFor();
    await look(page, 'pagos');
    await page.getByLabel('RUT del socio o del pagador').fill('');
    await page.getByLabel('Transacción, código de verificación u orden de compra').fill(idTransaccion);
    await page.getByLabel('Estado').selectOption('pending');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.getByText('No hay pagos con estos filtros.').waitFor();

    // A screen the agent's role cannot use: not in the bar, and its address says so.
    expect(await navLinks(page)).not.toContain('Auditoría');
    await page.goto(`${consoleUrl}auditoria`);
    await page.getByRole('heading', { level: 1, name: 'No tienes permiso' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Registro de auditoría' }).count()).toBe(0);
    await look(page, 'sin-permiso');

    const auditor = await signIn('auditor', TABLET);
    await auditor.getByRole('link', { name: 'Auditoría' }).click();
    await auditor.getByLabel('Transacción', { exact: true }).fill(idTransaccion);
    await auditor.getByLabel('Texto').fill('CUENTAVISTA');
    await auditor.getByRole('button', { name: 'Filtrar' }).click();
    const trail = auditor.getByRole('region', { name: 'Registro de auditoría' }).first();
    await trail.getByRole('cell', { name: 'Pago con cuenta vista pago.cuentavista', exact: true }).waitFor();
    await expect.poll(() => trail.getByRole('cell', { name: 'clave.correcta' }).count()).toBe(0);
    // The detail reads whole at 820 px: its lines wrap inside the table, nothing runs off to the side.
    await auditor.setViewportSize(TABLET);
    const table = auditor.getByRole('region', { name: 'Registro de auditoría' }).last();
    expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await trail.getByText(idTransaccion).first().waitFor();
    await look(auditor, 'auditoria-filtros');
    // The kinds come from the server's list; the RUT filter finds the payer's login.
    expect(await auditor.getByLabel('Tipo de evento').locator('option', { hasText: 'clave.correcta' }).count()).toBe(1);
  }, 180_000);

  it('ends the session at Salir: the same cookie opens nothing afterwards', async () => {
    const page = await signIn('auditor');
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'operador_sesion');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.getByRole('link', { name: 'Ingresar' }).waitFor();
    const replay = await fetch(`${operatorOrigin}/admin/auditoria`, { headers: { cookie: `operador_sesion=${session!.value}` } });
    expect(replay.status).toBe(401);
  });
});
