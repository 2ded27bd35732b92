import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { outbox } from '../../db/schema';
import { errorCode, listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar, productNumbered } from '../../../test/support/member-calls';
import { readPdf } from '../../../test/support/pdf-text';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtp-sink';
import { seededSnapshot, startTestApp, type SeededSnapshot, type TestApp } from '../../../test/support/test-app';

const basic = (rut: string, token: string) => `Basic ${Buffer.from(`${rut}:${token}`).toString('base64')}`;

/** A member pays a PM instalment with coordinates; answers the session and the transaction. */
/** Pays the oldest instalment of `numeroProducto` (or `amount` of it) for 11.111.111-1, as `payer`, with the card. */
async function paidSession(t: TestApp, numeroProducto = '630055667788', payer = '11111111-1', amount?: number) {
  const rut = '11111111-1';
  const { token, productos } = await listProducts(t.app, rut);
  const selected = oldest(productNumbered(productos, numeroProducto), 1);
  if (amount !== undefined) selected.detalleProducto[0]!.valorAPagar = amount;
  const sel = (await postSeleccionar(t.app, token, rut, [selected])).json().seleccionarProductoResponse;
  const login = await postAutentica(t.app, token, payer, '1234');
  const numeroCuenta = login.json().autenticaConsultaFactoresResponse.numeroCuenta as string;
  const challenge = await postAutorizar(t.app, token, rut, payer, 1);
  const card = demoCoordinateCard(payer);
  const valores = (challenge.json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
  const paid = await postPagar(t.app, { token, rutTitular: rut, rutPago: payer, numeroCuenta, factor: 1, valores });
  const pagado = paid.json().pagarProductoCVResponse.productoPagadoCV as { numeroAutorizacion: string; montoPagado: number };
  return { rut, token, idTransaccion: sel.idTransaccion as string, pagado };
}

const send = (t: TestApp, token: string, rut: string, correo: string, authorization = basic(rut, token)) =>
  t.app.inject({
    method: 'POST',
    url: '/prod/notificaciones/enviar',
    headers: { authorization },
    payload: { enviarComprobantePagoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, correo } },
  });

describe('voucher by e-mail over real SMTP, and as PDF', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  const received = () => smtp.received;

  let seeded: SeededSnapshot;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    seeded = await seededSnapshot('pglite');
  });
  afterAll(async () => {
    await seeded?.close();
    await smtp?.close();
  });
  // Each test pays on its own copy of the seeded members.
  beforeEach(async () => {
    t = await seeded.start({ config: { smtpUrl: smtp.url, productName: 'Cooperativa Ñandú' }, rateLimits: { mailPerSession: 3 } });
  });
  afterEach(async () => {
    await t?.close();
  });

  it('downloads the voucher as an A4 download.pdf with the amounts, the authorisation number and accents', async () => {
    const { token, idTransaccion, pagado } = await paidSession(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/comprobante/pdf', payload: { token, idTransaccion } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="download.pdf"');
    const pdf = await readPdf(new Uint8Array(res.rawPayload));
    expect(pdf.pages).toEqual([{ width: 595, height: 842 }]);
    expect(pdf.text).toContain('$156.300');
    expect(pdf.text).toContain(pagado.numeroAutorizacion);
    expect(pdf.text).toContain('Cooperativa Ñandú');
    // The voucher's one vocabulary (decision 035): the screen's labels, 'Débito', the masked RUT, the factor.
    for (const said of ['Nº de transacción', 'Medio de pago', 'Débito', 'RUT del socio', '**.***.111-1', 'Autorizado con', 'Tarjeta de coordenadas', 'Cantidad de cuotas', 'Crédito MYPE Nº ****7788']) {
      expect(pdf.text).toContain(said);
    }
    for (const dialect of ['N°', 'Debito', 'CUENTA VISTA', 'CREDITO MYPE', 'RUT deudor', '11.111.111-1']) expect(pdf.text).not.toContain(dialect);
  });

  it('names an instalment paid in part as one, in call 7 and the PDF, and counts no whole instalment', async () => {
    const { token, idTransaccion } = await paidSession(t, '410012345678', '11111111-1', 12_345);
    const voucher = await t.app.inject({
      method: 'POST',
      url: '/prod/pago/consultar',
      payload: { consultarPagoRequest: { userId: '11111111-1', canalLlamada: 'PGEX', idTransaccion, token } },
    });
    expect(voucher.json().consultarPagoResponse.listaPago.pago.detallePago).toMatchObject({ numeroCuota: 21, montoPagado: 12_345, cantidadCuotas: 0 });
    const pdf = await readPdf(new Uint8Array((await t.app.inject({ method: 'POST', url: '/api/comprobante/pdf', payload: { token, idTransaccion } })).rawPayload));
    expect(pdf.text).toContain('Cuota Nº 21 · Abono parcial');
    expect(pdf.text).not.toContain('Cantidad de cuotas');
  });

  it('never gives the PDF to another session or for a guessed id', async () => {
    const { idTransaccion } = await paidSession(t, '700011111111');
    const stranger = await listProducts(t.app, '9876543-3');
    expect((await t.app.inject({ method: 'POST', url: '/api/comprobante/pdf', payload: { token: stranger.token, idTransaccion } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/comprobante/pdf', payload: { token: 'nope', idTransaccion } })).statusCode).toBe(401);
  });

  it('sends the voucher with the PDF attached and answers the masked address', async () => {
    const { rut, token, pagado } = await paidSession(t, '520011223344');
    const res = await send(t, token, rut, 'camila.rojas@example.cl');
    expect(res.json().enviarComprobantePagoResponse).toEqual({
      codigo: '200',
      descripcion: 'Su comprobante ha sido enviado con éxito al correo cam*********@example.cl',
    });
    const mail = received().at(-1)!;
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('camila.rojas@example.cl');
    expect(mail.text).toContain('$412.870');
    // The e-mail masks the RUT as it masks the address: never the member's whole RUT, in text or HTML.
    expect(mail.text).toContain('RUT del socio: **.***.111-1');
    expect(mail.text).toContain('Medio de pago: Débito');
    for (const body of [mail.text ?? '', String(mail.html)]) {
      expect(body).not.toContain('11.111.111-1');
      expect(body).not.toContain('11111111');
    }
    // The proof travels with the voucher: the public page's address, and the code on the attached PDF.
    expect(mail.text).toMatch(/Verifica este comprobante en http:\/\/[^/]+\/comprobante\/verificar\/[A-Z2-7]{20}/);
    const [attachment] = mail.attachments;
    expect(attachment?.filename).toBe('download.pdf');
    expect(attachment?.contentType).toBe('application/pdf');
    const attached = (await readPdf(new Uint8Array(attachment!.content))).text;
    expect(attached).toContain(pagado.numeroAutorizacion);
    expect(attached).toMatch(/Código de verificación: [A-Z2-7]{4}(-[A-Z2-7]{4}){4}/);
    expect(await t.database.db.$count(outbox)).toBe(0);
  });

  it('refuses a wrong Authorization, an invalid address and a session without payment, and limits the sends', async () => {
    const { rut, token } = await paidSession(t, '520011223344');
    expect(errorCode(await send(t, token, rut, 'a@b.cl', basic('9876543-3', token)), 'enviarComprobantePagoResponse')).toBe('476');
    expect(errorCode(await send(t, token, rut, 'no-es-correo'), 'enviarComprobantePagoResponse')).toBe('400');
    const unpaid = await listProducts(t.app, '9876543-3');
    expect(errorCode(await send(t, unpaid.token, '9876543-3', 'x@y.cl'), 'enviarComprobantePagoResponse')).toBe('516');
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await send(t, token, rut, 'camila.rojas@example.cl')).statusCode);
    expect(codes.at(-1)).toBe(429);
  });
});

describe('a voucher anyone can verify', () => {
  let seeded: SeededSnapshot;
  let t: TestApp;
  beforeAll(async () => {
    seeded = await seededSnapshot('pglite');
  });
  afterAll(async () => {
    await seeded?.close();
  });
  beforeEach(async () => {
    t = await seeded.start({ config: { publicBaseUrl: 'https://pago.cooperativa.example' }, rateLimits: { verifyPerIp: 5 } });
  });
  afterEach(async () => {
    await t?.close();
  });

  const codeOf = async (token: string, idTransaccion: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/prod/pago/consultar',
      payload: { consultarPagoRequest: { userId: '11111111-1', canalLlamada: 'PGEX', idTransaccion, token } },
    });
    return res.json().consultarPagoResponse.codigoVerificacion as string;
  };
  const verify = (code: string) => t.app.inject({ method: 'GET', url: `/api/comprobante/verificar/${code}` });

  it('gives the voucher a code of 100 random bits, and shows to anyone only what proves the payment', async () => {
    const { token, idTransaccion, pagado } = await paidSession(t);
    const code = await codeOf(token, idTransaccion);
    expect(code).toMatch(/^[A-Z2-7]{20}$/);
    // No session, no cookie: the code alone.
    const res = await verify(code);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      verificacion: {
        fecha: expect.stringMatching(/^\d{8}$/),
        hora: expect.stringMatching(/^\d{2}:\d{2}:\d{2}$/),
        monto: 156_300,
        medioPago: 'CUENTA VISTA',
        productos: [{ descripcion: 'Crédito MYPE', numero: '****7788' }],
        rutSocio: '**.***.111-1',
        registrado: true,
        anulado: false,
      },
    });
    // Nothing else of the member: no full RUT, account, authorisation, e-mail or name.
    for (const secret of ['11111111', pagado.numeroAutorizacion, '@', 'Camila']) expect(res.body).not.toContain(secret);
    // Typed from the voucher, with dashes and in small letters, it is the same code.
    expect((await verify(code.toLowerCase().match(/.{4}/g)!.join('-'))).statusCode).toBe(200);
  });

  it('names the member whose instalment a third party paid, masked as on the voucher, and not the payer', async () => {
    const { token, idTransaccion } = await paidSession(t, '630055667788', '19191919-K');
    const res = await verify(await codeOf(token, idTransaccion));
    expect(res.json().verificacion.rutSocio).toBe('**.***.111-1');
    expect(res.body).not.toContain('919-K');
  });

  it('finds nothing for another code, refuses nonsense with the same 404, and limits the tries per client', async () => {
    for (const code of ['AAAAAAAAAAAAAAAAAAAA', 'not-a-code', '%2e%2e%2fadmin', 'A'.repeat(64)]) {
      const res = await verify(code);
      expect(res.statusCode, code).toBe(404);
      expect(res.json().verificacionResponse.error.errores.detalleError.codigo).toBe('516');
    }
    expect((await verify('BBBBBBBBBBBBBBBBBBBB')).statusCode).toBe(404);
    // The sixth try within the minute (the limit here is 5).
    expect((await verify('CCCCCCCCCCCCCCCCCCCC')).statusCode).toBe(429);
  });

  it('prints the code, its QR and the public address on the PDF', async () => {
    const { token, idTransaccion } = await paidSession(t);
    const code = await codeOf(token, idTransaccion);
    const res = await t.app.inject({ method: 'POST', url: '/api/comprobante/pdf', payload: { token, idTransaccion } });
    const pdf = await readPdf(new Uint8Array(res.rawPayload));
    expect(pdf.text).toContain(`Código de verificación: ${code.match(/.{4}/g)!.join('-')}`);
    expect(pdf.text).toContain(`https://pago.cooperativa.example/comprobante/verificar/${code}`);
  });
});

describe('voucher e-mail without SMTP', () => {
  it('lands in the sandbox outbox, shown at /sandbox/outbox with its PDF', async () => {
    const t = await startTestApp('pglite');
    try {
      const { rut, token } = await paidSession(t);
      expect((await send(t, token, rut, 'jorge@example.cl')).json().enviarComprobantePagoResponse.codigo).toBe('200');
      const [mail] = await t.database.db.select().from(outbox);
      expect(mail?.to).toBe('jorge@example.cl');
      const page = await t.app.inject({ method: 'GET', url: '/sandbox/outbox' });
      expect(page.body).toContain('download.pdf');
      const pdf = await t.app.inject({ method: 'GET', url: `/sandbox/outbox/${mail!.id}/attachments/0` });
      expect(pdf.headers['content-type']).toBe('application/pdf');
    } finally {
      await t.close();
    }
  });

  it('answers 502 when the SMTP server refuses, so the member can retry', async () => {
    const t = await startTestApp('pglite', { config: { smtpUrl: 'smtp://127.0.0.1:9' } });
    try {
      const { rut, token } = await paidSession(t);
      expect(errorCode(await send(t, token, rut, 'jorge@example.cl'), 'enviarComprobantePagoResponse')).toBe('502');
    } finally {
      await t.close();
    }
  });
});
