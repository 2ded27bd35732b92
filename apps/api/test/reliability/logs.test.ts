import { formatRut } from '@pago/domain/rut';
import { buildSimulator } from '@pago/webpay-sim/app';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { shiftedClock } from '../../src/clock';
import type { Database } from '../../src/db/client';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { seedDemoMembers, seedParameters } from '../../src/db/seed';
import { loggerOptions } from '../../src/logging';
import { createWebpayClient } from '../../src/services/webpay-client';
import { businessNoon, coreClientFor, DATABASE_KINDS, openTestDatabase, startCoreSim, TEST_ADMIN_TOKEN, testConfig, type CoreSimHandle } from '../support/test-app';
import { AuthoriserDevice } from '../support/authoriser-device';
import { devicePending } from '../support/member-calls';
import { DECISION_PATH, DECISION_RESPONSE, ENROLAR_PATH } from '@pago/domain/call-autorizador';
import { insertLoadMembers, LOAD_PASSWORD, loadMemberProfiles, type LoadMember } from './fixtures';
import { codeOf, listar, oldestOf, post, postReturn, seleccionar, solveCaptcha, startCard, useCardForm, VISA_APPROVED } from './flows';
import { injectTarget, jsonOf, type Target } from './http';
import { recordFigures } from './settings';

// Part 2, logs: the whole life of a payment, with its refusals and a database fault, logged by the production
// logger at 'trace' into a buffer. No line may carry a full RUT (with or without dots), the password, a coordinate
// answer, a session or payment token, or an e-mail address.

const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

describe.each(DATABASE_KINDS)('no personal data in any log line (%s)', (kind) => {
  const lines: string[] = [];
  const secrets = new Map<string, string>();
  let app: FastifyInstance;
  let database: Database;
  let sim: FastifyInstance;
  let simUrl: string;
  let core: CoreSimHandle;
  let smtp: SMTPServer;
  let member: LoadMember;
  let target: Target;
  const delivered: string[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // A mailbox the server refuses: its error names the address, and that error reaches the log.
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('rechazado')) return callback(new Error(`550 5.1.1 <${address.address}>: Recipient address rejected`));
        callback();
      },
      onData(stream, session, callback) {
        delivered.push(session.envelope.rcptTo.map((r) => r.address).join(','));
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    sim = buildSimulator({ publicUrl: 'http://sim.test' });
    simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });

    const clock = shiftedClock(businessNoon());
    database = await openTestDatabase(kind);
    await seedParameters(database.db);
    await seedDemoMembers(database.db, clock());
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(clock()).replaceAll('-', '');
    member = (await insertLoadMembers(database.db, 1, today, 27_364_519))[0]!;
    core = await startCoreSim(today, { members: loadMemberProfiles(1, 27_364_519) });

    const port = (smtp.server.address() as { port: number }).port;
    app = await buildApp({
      config: testConfig({ smtpUrl: `smtp://127.0.0.1:${port}`, altchaCounter: { min: 10, max: 50 } }),
      database,
      clock,
      core: coreClientFor(core.origin),
      webpay: createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 }),
      logger: { ...loggerOptions('trace'), stream: { write: (line: string) => void lines.push(line) } },
    });
    await app.ready();
    target = injectTarget(app);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.close().catch(() => undefined);
    await sim?.close();
    await core?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('logs the payment’s life without a RUT, password, coordinate, token or e-mail', async () => {
    const rut = member.rut;
    const [numero, dv] = rut.split('-') as [string, string];
    const recipient = 'destinatario.unico@correo.example';
    secrets.set('RUT', rut).set('RUT with dots', formatRut(rut)).set('RUT without dash', `${numero}${dv}`).set('RUT body', numero);
    secrets.set('password', LOAD_PASSWORD).set('member e-mail', member.email).set('voucher e-mail', recipient);

    const { token, productos } = await listar(target, rut);
    secrets.set('session token', token);
    const product = (family: string) => productos.find((p) => p.tipoFamiliaProducto === family)!;
    const login = async (clave: string) =>
      post(
        target,
        '/prod/pago/producto/cuentavista/autentica',
        { autenticaConsultaFactoresRequest: { userId: rut, canalLlamada: 'PGEX', token, autenticacion: { rut: numero, dv, clave } } },
        { authorization: await solveCaptcha(target) },
      );
    const autorizar = (factor: 1 | 2) =>
      post(target, '/prod/pago/producto/cuentavista/autorizar', { autorizarPagoProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token, factor, rut, rutPago: rut } });
    const pagar = (numeroCuenta: string, factor: 1 | 2, valores?: string[]) =>
      post(target, '/prod/pago/producto/cuentavista/pagar', {
        pagarProductoCVRequest: {
          userId: rut,
          canalLlamada: 'PGEX',
          token,
          rutTitular: rut,
          numeroCuenta,
          rutPago: rut,
          factor,
          ...(valores ? { desafio: { item: valores.map((valor) => ({ valor })) } } : {}),
        },
      });

    // Coordinates: a wrong password, then the right one; a wrong answer, then the right one.
    const first = await seleccionar(target, token, rut, [oldestOf(product('PC'), 1)]);
    expect(codeOf(await login('Mala#123'), 'autenticaConsultaFactoresResponse')).toBe('45203113');
    const numeroCuenta = jsonOf<Record<string, { numeroCuenta: string }>>(await login(LOAD_PASSWORD)).autenticaConsultaFactoresResponse!.numeroCuenta;
    const cells = () => autorizar(1).then((r) => jsonOf<Record<string, { desafio: { item: { valor: string }[] } }>>(r).autorizarPagoProductoCVResponse!.desafio.item.map((i) => i.valor));
    const card = demoCoordinateCard(rut);
    const wrong = (await cells()).map((c) => String((Number(card[c]) + 1) % 100).padStart(2, '0'));
    expect(codeOf(await pagar(numeroCuenta, 1, wrong), 'pagarProductoCVResponse')).toBe('5203007');
    const right = (await cells()).map((c) => card[c]!);
    secrets.set('coordinate answers', `"${right.join('","')}"`);
    expect(codeOf(await pagar(numeroCuenta, 1, right), 'pagarProductoCVResponse')).toBeUndefined();
    expect((await post(target, '/prod/pago/consultar', { consultarPagoRequest: { userId: rut, canalLlamada: 'PGEX', token, idTransaccion: first.idTransaccion } })).status).toBe(200);
    expect((await post(target, '/api/comprobante/pdf', { token, idTransaccion: first.idTransaccion })).status).toBe(200);
    const mail = await post(
      target,
      '/prod/notificaciones/enviar',
      { enviarComprobantePagoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, correo: recipient } },
      { authorization: `Basic ${Buffer.from(`${rut}:${token}`).toString('base64')}` },
    );
    expect(jsonOf<Record<string, { codigo: string }>>(mail).enviarComprobantePagoResponse!.codigo).toBe('200');
    expect(delivered).toEqual([recipient]);
    const refusedRecipient = 'rechazado.unico@correo.example';
    secrets.set('refused e-mail', refusedRecipient);
    const refusedMail = await post(
      target,
      '/prod/notificaciones/enviar',
      { enviarComprobantePagoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, correo: refusedRecipient } },
      { authorization: `Basic ${Buffer.from(`${rut}:${token}`).toString('base64')}` },
    );
    expect(codeOf(refusedMail, 'enviarComprobantePagoResponse')).toBe('502');

    // The mobile authoriser: enrolled with the operator's code, polled, seen on the phone, approved with its key.
    const phone = await AuthoriserDevice.create();
    const enrolment = await post(target, `/admin/socios/${rut}/autorizador/codigo`, {}, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
    const { codigo } = jsonOf<{ operacionesResponse: { codigo: string } }>(enrolment).operacionesResponse;
    secrets.set('enrolment code', codigo).set('enrolment code, ungrouped', codigo.replaceAll('-', '')).set('device key', phone.clavePublica);
    phone.dispositivo = jsonOf<{ enrolarDispositivoResponse: { dispositivo: string } }>(await post(target, ENROLAR_PATH, await phone.enrolment(codigo))).enrolarDispositivoResponse.dispositivo;
    await seleccionar(target, token, rut, [oldestOf(product('PM'), 1)]);
    await login(LOAD_PASSWORD);
    await autorizar(2);
    expect(codeOf(await pagar(numeroCuenta, 2), 'pagarProductoCVResponse')).toBe('25');
    const [push] = await devicePending(app, phone);
    expect(codeOf(await post(target, DECISION_PATH, await phone.decision(push!, 'aprobar')), DECISION_RESPONSE)).toBeUndefined();
    expect(codeOf(await pagar(numeroCuenta, 2), 'pagarProductoCVResponse')).toBeUndefined();
    expect((await target.request({ method: 'GET', url: `/sandbox/coordinates?rut=${formatRut(rut)}` })).status).toBe(200);

    // The card: payment host, Webpay's form, the return.
    const cp = [oldestOf(product('CP'), 1)];
    const third = await seleccionar(target, token, rut, cp);
    const started = await startCard(target, { token, rut }, { idTransaccion: third.idTransaccion, producto: cp });
    secrets.set('payment host token', started.hostToken);
    expect(await postReturn(target, await useCardForm(simUrl, started.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');

    // The browser's own report, carrying what a careless front end might put there.
    await post(target, '/prod/auditoria/guardarlog', {
      guardarLogRequest: { idPlataforma: 'web', origenLlamada: 'pago', destinoLlamada: 'voucher', nivelLog: 'ERROR', detalleLog: `fallo para ${rut} ${member.email}`, rut },
    });

    // And a fault: the database goes away under a logged-in session.
    await database.close();
    const down = await post(target, '/prod/producto/seleccionar', { seleccionarProductoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, producto: cp } });
    // PGlite closed is 'unavailable' (503); a pg pool that was ended is a fault of its own (500): both say nothing more.
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(['500', '503']).toContain(codeOf(down, 'seleccionarProductoResponse'));
    const downLogin = await post(target, '/prod/pago/producto/cuentavista/autentica', { autenticaConsultaFactoresRequest: { userId: rut, canalLlamada: 'PGEX', token, autenticacion: { rut: numero, dv, clave: LOAD_PASSWORD } } }, { authorization: 'x' });
    expect(downLogin.status).toBeGreaterThanOrEqual(500);
    // A query whose parameters are the RUT itself fails too: its parameters must not reach the log with the error.
    expect((await target.request({ method: 'GET', url: `/admin/socios/${rut}/autorizador/dispositivos`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status).toBeGreaterThanOrEqual(500);

    const log = lines.join('');
    // The logger was on: every request left lines, and the fault was recorded.
    expect(lines.length).toBeGreaterThan(30);
    expect(log).toContain('request completed');
    expect(log).toMatch(/database unavailable|unexpected fault/);
    const found = [...secrets].filter(([, value]) => log.includes(value)).map(([name]) => name);
    const leakedLines = lines.filter((l) => [...secrets.values()].some((v) => l.includes(v))).slice(0, 3);
    expect(found, `personal data in the logs:\n${leakedLines.join('')}`).toEqual([]);
    recordFigures({ section: 'logs', database: kind, requestsServed: lines.filter((l) => l.includes('request completed')).length, notes: `${lines.length} log lines at trace, ${secrets.size} secrets looked for` });
  }, 60_000);
});
