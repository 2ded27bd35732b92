import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { openDatabase, type Database } from '../../src/db/client';
import { mailQueue } from '../../src/db/schema';
import pg from 'pg';
import { postgresBinaries, startPrivatePostgres, type PrivatePostgres } from './postgres-server';
import { seedDemoMembers, seedParameters } from '../../src/db/seed';
import { businessNoon, startCoreSim, type CoreSimHandle } from '../support/test-app';
import { businessToday } from '@pago/domain/business-time';
import { codeOf, listar, oldestOf, post, seleccionar, solveCaptcha } from './flows';
import { fetchTarget, jsonOf, type Target } from './http';
import { bundleApi, freePort, startApiProcess, type ApiProcess } from './processes';
import { recordFigures } from './settings';
import { signInAtIssuer, startSeparateIssuer, type SeparateIssuer } from './separate-issuer';
import { AuthoriserDevice } from '../support/authoriser-device';
import { machineAddress, makeCertificate, startTlsFront, type TlsFront } from './tls';
import { DECISION_PATH, DECISION_RESPONSE, ENROLAR_PATH, PENDIENTES_PATH, type Solicitud } from '@pago/domain/call-autorizador';

// The attacks again, against the API as it runs for real: the bundle, NODE_ENV=production, PostgreSQL, no sandbox
// and no demo seed (the test writes its members into the database, as the core system's load would, and imports one
// through the admin API), the operator's surfaces on their own port. Production reads the real clock, so the process
// runs under Debian's libfaketime at today's business noon: opening hours never depend on when the suite runs.

// Production refuses ADMIN_TOKEN: the machine token is issued as production issues its first, by the CLI writing to
// the database.
const ADMIN = fileURLToPath(new URL('../../src/cli/admin.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
let MACHINE_TOKEN = '';
const OIDC_CLIENT_SECRET = 'a-production-oidc-client-secret-of-the-issuer';
const OPERATOR_BASE_URL = 'https://operador.cooperativa.example';
const RUT = '17171717-5';
const PRODUCT = '990011223344';
const LIST = 'listarDetalleProductosResponse';
const AUT = 'autenticaConsultaFactoresResponse';
const AUZ = 'autorizarPagoProductoCVResponse';
const PAG = 'pagarProductoCVResponse';
const FAKETIME = process.env.FAKETIME_LIB ?? '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
// The core is reached by name at this machine's own network address: production refuses loopback and link-local.
const NETWORK_ADDRESS = machineAddress();
const CORE_HOST = 'core.cooperativa.test';
// Not Fineract's demo user and password, which production refuses: the simulator is given these.
const CORE_USERNAME = 'pago-online';
const CORE_PASSWORD = randomBytes(16).toString('hex');

// Its own PostgreSQL server: the API connects with a role of its own, which only inserts into the audit trail, and
// the schema's owner migrates (decision 042); roles are the server's, not the shared server's to change.
const PG = postgresBinaries();

describe.skipIf(!process.env.DATABASE_URL || !existsSync(FAKETIME) || !NETWORK_ADDRESS || 'missing' in PG)('a production-mode instance on PostgreSQL', () => {
  let bundle: Awaited<ReturnType<typeof bundleApi>>;
  let server: PrivatePostgres;
  let apiUrl: string;
  let ownerUrl: string;
  /** Our database as the test reads it (the owner's connection). */
  let ours: Database;
  let api: ApiProcess;
  let apiEnv: Record<string, string>;
  let core: CoreSimHandle;
  let coreTls: TlsFront;
  let certificates: string;
  let operator: Target;
  let issuer: SeparateIssuer;
  let attacks = 0;
  const client = (n: number) => fetchTarget(api.url, `client ${n}`, 20_000, `127.0.0.${n}`);

  beforeAll(async () => {
    bundle = await bundleApi();
    server = await startPrivatePostgres((PG as { bin: string }).bin);
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    for (const statement of ['create role pago_owner login', 'create role pago_api login', 'create database pago owner pago_owner']) await admin.query(statement);
    await admin.end();
    [apiUrl, ownerUrl] = ['pago_api', 'pago_owner'].map((role) => `postgres://${role}@127.0.0.1:${server.port}/pago`) as [string, string];
    const noon = businessNoon();
    const seeding = await openDatabase({ url: apiUrl, ownerUrl });
    await seeding.migrate();
    await seedParameters(seeding.db);
    await seedDemoMembers(seeding.db, noon);
    await seeding.close();
    const issued = await promisify(execFile)(TSX, [ADMIN, 'tokens', 'issue', 'produccion', 'importacion,parametros.ver,autorizador.gestionar', '--database'], {
      env: { ...process.env, DATABASE_URL: apiUrl },
    });
    MACHINE_TOKEN = /: (pot_\S+)$/.exec(issued.stdout.trim())?.[1] ?? '';
    expect(MACHINE_TOKEN, issued.stdout).toMatch(/^pot_/);
    const adminPort = await freePort();
    // The core under a name of its own, over TLS (a front with a certificate made for this run) on this machine's
    // network address, with credentials of its own: what production accepts. The harness resolves the name.
    core = await startCoreSim(businessToday(noon), { username: CORE_USERNAME, password: CORE_PASSWORD });
    certificates = mkdtempSync(join(tmpdir(), 'pago-production-'));
    const coreCertificate = makeCertificate(CORE_HOST, certificates, FAKETIME);
    coreTls = await startTlsFront({ address: NETWORK_ADDRESS!, certificate: coreCertificate, target: { host: '127.0.0.1', port: Number(new URL(core.origin).port) } });
    // The cooperative's identity provider: a separate issuer over TLS, under a name of its own.
    const clock = { LD_PRELOAD: FAKETIME, FAKETIME: `@${noon.toISOString().slice(0, 19).replace('T', ' ')}`, FAKETIME_DONT_FAKE_MONOTONIC: '1', TZ: 'UTC' };
    issuer = await startSeparateIssuer({ host: 'login.cooperativa.test', clientSecret: OIDC_CLIENT_SECRET, redirectUri: `${OPERATOR_BASE_URL}/operador/callback`, env: clock });
    // The API trusts both certificates, as it would the authorities of the cooperative's core and provider.
    const trusted = join(certificates, 'trusted.pem');
    writeFileSync(trusted, [coreCertificate.certFile, issuer.caFile].map((file) => readFileSync(file, 'utf8')).join(''));
    apiEnv = {
      NODE_OPTIONS: `--import ${new URL('./hosts-preload.mjs', import.meta.url).href}`,
      PAGO_TEST_HOSTS: `${CORE_HOST}=${NETWORK_ADDRESS},login.cooperativa.test=127.0.0.1`,
      NODE_EXTRA_CA_CERTS: trusted,
      CORE_BASE_URL: `https://${CORE_HOST}:${coreTls.port}/fineract-provider/api`,
      CORE_USERNAME,
      CORE_PASSWORD,
      CORE_TENANT: 'default',
      LD_PRELOAD: FAKETIME,
      FAKETIME: `@${noon.toISOString().slice(0, 19).replace('T', ' ')}`,
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      TZ: 'UTC',
      NODE_ENV: 'production',
      DATABASE_URL: apiUrl,
      DATABASE_OWNER_URL: ownerUrl,
      ADMIN_PORT: String(adminPort),
      ALTCHA_HMAC_SECRET: randomBytes(32).toString('hex'),
      // The least proof of work production accepts: the test's clients solve it quickly.
      ALTCHA_COUNTER_MIN: '1000',
      ALTCHA_COUNTER_MAX: '1000',
      WEBPAY_BASE_URL: 'https://webpay3g.transbank.cl',
      WEBPAY_COMMERCE_CODE: '597012345678',
      WEBPAY_API_KEY: 'a-production-webpay-api-key',
      // Nothing listens there: no test here sends mail, and one that did would fail to, as with a server down.
      SMTP_URL: 'smtps://127.0.0.1:9',
      PUBLIC_BASE_URL: 'https://pago.cooperativa.example',
      PRODUCT_SITE_URL: 'https://www.cooperativa.example/',
      PRODUCT_PASSWORD_RECOVERY_URL: 'https://www.cooperativa.example/clave',
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: 'pago-online-operador',
      OIDC_CLIENT_SECRET,
      OIDC_ROLES_CLAIM: 'roles',
      OPERATOR_BASE_URL,
      LOG_LEVEL: 'warn',
    };
    api = await startApiProcess(bundle.script, apiEnv);
    ours = await openDatabase({ url: ownerUrl });
    operator = fetchTarget(`http://127.0.0.1:${adminPort}`, 'operator');
    const dueSoon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    const imported = await post(
      operator,
      '/admin/importacion',
      { corte: new Date().toISOString(), socios: [{ rut: RUT, nombre: 'Socia Importada', productos: [{ familia: 'PC', numeroProducto: PRODUCT, cupoTotal: 9_000_000, cuotas: [{ numeroCuota: 1, monto: 50_000, fechaVencimiento: dueSoon }] }] }] },
      { authorization: `Bearer ${MACHINE_TOKEN}` },
    );
    expect(imported.status).toBe(200);
    expect(jsonOf<{ operacionesResponse: { aceptados: number } }>(imported).operacionesResponse.aceptados).toBe(1);
  }, 120_000);
  afterAll(async () => {
    recordFigures({ section: 'attacks', database: 'postgres', faultsInjected: attacks, notes: 'production-mode bundle' });
    await api?.stop();
    await issuer?.close();
    await coreTls?.close();
    await core?.close();
    if (certificates) rmSync(certificates, { recursive: true, force: true });
    await ours?.close();
    await server?.remove();
    bundle?.remove();
  });

  const list = async (target: Target, rut = RUT) => post(target, '/prod/producto/listar', { listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } }, { authorization: await solveCaptcha(target) });

  it('refuses to start when the core’s name leads to this machine, naming CORE_BASE_URL', async () => {
    const outcome = await startApiProcess(bundle.script, { ...apiEnv, PAGO_TEST_HOSTS: `${CORE_HOST}=127.0.0.1,login.cooperativa.test=127.0.0.1` }).then(
      async (started) => (await started.stop(), 'started'),
      (error: Error) => error.message,
    );
    expect(outcome).toContain(`CORE_BASE_URL: its host ${CORE_HOST} resolves to 127.0.0.1`);
  });

  it('refuses to start when DATABASE_URL’s role could change the audit trail', async () => {
    const outcome = await startApiProcess(bundle.script, { ...apiEnv, DATABASE_URL: ownerUrl }).then(
      async (started) => (await started.stop(), 'started'),
      (error: Error) => error.message,
    );
    expect(outcome).toContain('DATABASE_URL: its role can change or empty the audit trail');
  });

  it('serves no sandbox, and the operator’s surfaces only on their own port', async () => {
    attacks++;
    for (const path of ['/sandbox', '/sandbox/coordinates?rut=11111111-1', '/admin/parametros', '/metrics', '/docs', '/operador/entrar', '/operador/api/sesion', '/sandbox/oidc/.well-known/openid-configuration']) {
      expect((await client(2).request({ method: 'GET', url: path, headers: { authorization: `Bearer ${MACHINE_TOKEN}` } })).status).toBe(404);
    }
    expect((await operator.request({ method: 'GET', url: '/admin/parametros' })).status).toBe(401);
    expect((await operator.request({ method: 'GET', url: '/admin/parametros', headers: { authorization: `Bearer ${MACHINE_TOKEN}` } })).status).toBe(200);
    expect((await operator.request({ method: 'GET', url: '/metrics' })).status).toBe(200);
    // The embedded identity provider is the sandbox's: production's operator port has none.
    expect((await operator.request({ method: 'GET', url: '/sandbox/oidc/.well-known/openid-configuration' })).status).toBe(404);
    expect(jsonOf(await operator.request({ method: 'GET', url: '/operador/api/sesion' }))).toEqual({ operadorResponse: { sesion: null } });
  });

  it('signs an operator in at the separate issuer only with a second factor, within the role', async () => {
    attacks++;
    const password = await signInAtIssuer(operator, issuer, { usuario: 'operaciones', clave: 'operaciones-demo', codigo: '' });
    expect(password.status).toBe(403);
    expect(password.body).toContain('segundo factor');
    expect(password.sessionCookie).toBeNull();

    const signedIn = await signInAtIssuer(operator, issuer, { usuario: 'operaciones', clave: 'operaciones-demo', codigo: '123456' });
    expect(signedIn.status, signedIn.body).toBe(200);
    const cookie = signedIn.sessionCookie!;
    expect((await operator.request({ method: 'GET', url: '/admin/parametros', headers: { cookie } })).status).toBe(200);
    expect((await operator.request({ method: 'GET', url: '/admin/auditoria', headers: { cookie } })).status).toBe(403);
    const session = jsonOf<{ operadorResponse: { sesion: { nombre: string; csrf: string } } }>(await operator.request({ method: 'GET', url: '/operador/api/sesion', headers: { cookie } }));
    expect(session.operadorResponse.sesion.nombre).toBe('Óscar Operaciones');
    // A state-changing call without the CSRF token changes nothing; with it, maintenance is only proposed.
    const put = (headers: Record<string, string>) =>
      operator.request({ method: 'PUT', url: '/admin/parametros/Mantencion', headers: { cookie, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ valor: '1', motivo: 'Prueba de producción' }) });
    expect((await put({})).status).toBe(403);
    expect((await put({ 'x-csrf-token': session.operadorResponse.sesion.csrf })).status).toBe(202);
    const params = jsonOf<{ parametrosResponse: { parametros: { nombre: string; valor: string }[] } }>(await operator.request({ method: 'GET', url: '/admin/parametros', headers: { cookie } }));
    expect(params.parametrosResponse.parametros.find((p) => p.nombre === 'Mantencion')?.valor).toBe('0');
  });

  /** An operator signed in at the separate issuer: the headers of their state-changing calls. */
  const signedIn = async (usuario: string) => {
    const { sessionCookie } = await signInAtIssuer(operator, issuer, { usuario, clave: `${usuario}-demo`, codigo: '123456' });
    const sesion = jsonOf<{ operadorResponse: { sesion: { csrf: string } } }>(await operator.request({ method: 'GET', url: '/operador/api/sesion', headers: { cookie: sessionCookie! } }));
    return { cookie: sessionCookie!, 'x-csrf-token': sesion.operadorResponse.sesion.csrf };
  };
  const send = (method: 'POST' | 'PUT', url: string, headers: Record<string, string>, body?: object) =>
    operator.request({ method, url, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body ?? {}) });

  it('lets no administrator defeat four eyes through their own roles or a token', async () => {
    attacks++;
    const admin = await signedIn('admin');
    expect((await send('PUT', '/admin/operadores/admin/roles', admin, { roles: ['admin', 'operaciones', 'finanzas'] })).status).toBe(403);
    for (const alcances of [['parametros.cambiar'], ['socios.ver', 'autorizador.gestionar'], ['webpay.devolver'], ['importacion']]) {
      expect((await send('POST', '/admin/tokens', admin, { nombre: 'puerta-trasera', alcances })).status, alcances.join()).toBe(403);
    }

    // A token asked for by an operations operator acts for her: she never approves what it proposes.
    const oscar = await signedIn('operaciones');
    const asked = await send('POST', '/admin/tokens', oscar, { nombre: 'parametros-auto', alcances: ['parametros.cambiar'] });
    expect(asked.status).toBe(202);
    const { secreto, cambio } = jsonOf<{ consolaResponse: { secreto: string; cambio: { id: string } } }>(asked).consolaResponse;
    const bearer = { authorization: `Bearer ${secreto}` };
    expect((await send('PUT', '/admin/parametros/pagoWPDebitoCredito', bearer, { valor: '597000000001' })).status).toBe(401);
    expect((await send('POST', `/admin/cambios/${cambio.id}/aprobar`, oscar)).status).toBe(403);
    expect((await send('POST', `/admin/cambios/${cambio.id}/aprobar`, admin)).status).toBe(200);
    const proposed = await send('PUT', '/admin/parametros/pagoWPDebitoCredito', bearer, { valor: '597000000001' });
    expect(proposed.status).toBe(202);
    const change = jsonOf<{ parametrosResponse: { cambio: { id: string; propuestoPor: string } } }>(proposed).parametrosResponse.cambio;
    expect(change.propuestoPor).toBe('token parametros-auto (Óscar Operaciones)');
    expect((await send('POST', `/admin/cambios/${change.id}/aprobar`, oscar)).status).toBe(403);
    const params = jsonOf<{ parametrosResponse: { parametros: { nombre: string; valor: string }[] } }>(await operator.request({ method: 'GET', url: '/admin/parametros', headers: { cookie: oscar.cookie } }));
    expect(params.parametrosResponse.parametros.find((p) => p.nombre === 'pagoWPDebitoCredito')?.valor).not.toBe('597000000001');
    expect((await send('POST', `/admin/cambios/${change.id}/rechazar`, await signedIn('operaciones2'))).status).toBe(200);
  });

  it('lists by RUT alone no product number but its last four digits, and no debt or limit', async () => {
    attacks++;
    const res = await list(client(3));
    expect(res.status).toBe(200);
    expect(res.body).toContain('3344');
    expect(res.body).not.toContain(PRODUCT.slice(0, -4));
    expect(res.body).not.toContain('cupoTotal');
  });

  it('lets no client lock a member out of the product list', async () => {
    attacks++;
    const attacker = client(4);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await list(attacker)).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    const member = await list(client(5));
    expect(member.status).toBe(200);
    expect(codeOf(member, LIST)).toBeUndefined();
  });

  it('lets ten addresses that reach a RUT’s ceiling of listings keep its member from the list no longer', async () => {
    attacks++;
    const rut = '16789012-1';
    const statuses: number[] = [];
    for (let n = 40; n < 50; n++) for (let k = 0; k < 10; k++) statuses.push((await list(client(n), rut)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    // The ceiling (100 per 15 minutes) is reached: the attackers' addresses are refused, the member's is served.
    expect((await list(client(40), rut)).status).toBe(429);
    const member = await list(client(51), rut);
    expect(member.status).toBe(200);
    expect(codeOf(member, LIST)).toBeUndefined();
  });

  /** A session of `rut` with its oldest credit instalment selected, as anyone who knows the RUT can make. */
  const selected = async (target: Target, rut: string) => {
    const { token, productos } = await listar(target, rut);
    await seleccionar(target, token, rut, [oldestOf(productos.find((p) => p.tipoFamiliaProducto !== 'AH')!, 1)]);
    return token;
  };
  const autentica = async (target: Target, token: string, payer: string, clave: string) => {
    const [rut, dv] = payer.split('-') as [string, string];
    return post(target, '/prod/pago/producto/cuentavista/autentica', { autenticaConsultaFactoresRequest: { userId: payer, canalLlamada: 'PGEX', token, autenticacion: { rut, dv, clave } } }, { authorization: await solveCaptcha(target) });
  };

  it('answers a RUT without an online password as a member’s wrong one, both blocking at the third', async () => {
    attacks++;
    const target = client(6);
    const codesFor = async (rut: string) => {
      const token = await selected(target, rut);
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push(codeOf(await autentica(target, token, rut, 'adivina'), AUT));
      return codes;
    };
    expect(await codesFor(RUT)).toEqual(['45203113', '45203113', '45203016']);
    expect(await codesFor('9876543-3')).toEqual(['45203113', '45203113', '45203016']);
  });

  it('lets strangers on ten addresses block no member’s password, and answers a member as it answers a stranger', async () => {
    attacks++;
    const victim = '9876543-3';
    const answers: Record<string, (string | undefined)[]> = { [victim]: [], '21212121-5': [] };
    for (let n = 20; n < 30; n++) {
      const target = client(n);
      const token = await selected(target, '11111111-1');
      for (const rut of Object.keys(answers)) for (let k = 0; k < 4; k++) answers[rut]!.push(codeOf(await autentica(target, token, rut, `adivina${k}`), AUT));
    }
    expect(answers[victim]!.slice(0, 4)).toEqual(['45203113', '45203113', '45203016', '45203016']);
    expect(answers[victim]).toEqual(answers['21212121-5']);
    // The member, on their own device, still logs in.
    const own = client(30);
    expect(codeOf(await autentica(own, await selected(own, victim), victim, '1234'), AUT)).toBeUndefined();
  });

  it('gives the same coordinate cells to every call 5 of a login, and in later sessions until they are answered', async () => {
    attacks++;
    const target = client(8);
    const rut = '11111111-1';
    const token = await selected(target, rut);
    expect(codeOf(await autentica(target, token, rut, '1234'), AUT)).toBeUndefined();
    const challenge = async () => post(target, '/prod/pago/producto/cuentavista/autorizar', { autorizarPagoProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token, factor: 1, rut, rutPago: rut } });
    const cells = (res: Awaited<ReturnType<typeof challenge>>) => jsonOf<Record<string, { desafio: { item: { valor: string }[] } }>>(res)[AUZ]!.desafio.item.map((i) => i.valor);
    const first = cells(await challenge());
    expect(first.every((cell) => cell in demoCoordinateCard(rut))).toBe(true);
    expect(cells(await challenge())).toEqual(first);
    // Abandoned, then asked again in a new session from another address: the same cells, never fresh ones.
    const elsewhere = client(12);
    const again = await selected(elsewhere, rut);
    expect(codeOf(await autentica(elsewhere, again, rut, '1234'), AUT)).toBeUndefined();
    const challengeThere = await post(elsewhere, '/prod/pago/producto/cuentavista/autorizar', { autorizarPagoProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token: again, factor: 1, rut, rutPago: rut } });
    expect(cells(challengeThere)).toEqual(first);
  });

  it('refuses a payment under way once the operator sets maintenance', async () => {
    attacks++;
    const target = client(9);
    const rut = '15432876-9';
    const token = await selected(target, rut);
    // Without the bootstrap token, maintenance is set as staff set it: one operator proposes, another approves.
    const [maker, checker] = [await signedIn('operaciones'), await signedIn('operaciones2')];
    // The proposal an earlier test left waiting is rejected first: one pending change per parameter.
    const inbox = jsonOf<{ cambiosResponse: { cambios: { id: string; objetivo: string; estado: string }[] } }>(await operator.request({ method: 'GET', url: '/admin/cambios', headers: checker }));
    for (const waiting of inbox.cambiosResponse.cambios.filter((c) => c.objetivo === 'Mantencion' && c.estado === 'pendiente')) {
      expect((await operator.request({ method: 'POST', url: `/admin/cambios/${waiting.id}/rechazar`, headers: checker })).status).toBe(200);
    }
    const put = async (valor: string) => {
      const proposed = await operator.request({ method: 'PUT', url: '/admin/parametros/Mantencion', headers: { 'content-type': 'application/json', ...maker }, body: JSON.stringify({ valor, motivo: 'Mantención programada' }) });
      expect(proposed.status).toBe(202);
      const { id } = jsonOf<{ parametrosResponse: { cambio: { id: string } } }>(proposed).parametrosResponse.cambio;
      return (await operator.request({ method: 'POST', url: `/admin/cambios/${id}/aprobar`, headers: checker })).status;
    };
    expect(await put('1')).toBe(200);
    try {
      expect(codeOf(await autentica(target, token, rut, '1234'), AUT)).toBe('503');
    } finally {
      expect(await put('0')).toBe(200);
    }
    expect(codeOf(await autentica(target, token, rut, '1234'), AUT)).toBeUndefined();
  });

  it('lets a member whose only factor is the authoriser pay, approved by their enrolled phone', async () => {
    const target = client(10);
    const rut = '14141414-3';
    const phone = await AuthoriserDevice.create();
    // The code is proposed (here by the CLI's token), approved by an operator, and reaches only the member's e-mail.
    const proposed = await post(operator, `/admin/socios/${rut}/autorizador/codigo`, {}, { authorization: `Bearer ${MACHINE_TOKEN}` });
    expect(proposed.status).toBe(202);
    const { cambio } = jsonOf<{ operacionesResponse: { cambio: { id: string } } }>(proposed).operacionesResponse;
    const approved = await send('POST', `/admin/cambios/${cambio.id}/aprobar`, await signedIn('operaciones'));
    expect(approved.status).toBe(200);
    const [mail] = await ours.db.select().from(mailQueue).where(eq(mailQueue.to, 'tomas.vargas@example.cl'));
    const codigo = /([A-Z2-7]{4}(?:-[A-Z2-7]{4}){4})/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(approved.body).not.toContain(codigo);
    const enrolled = jsonOf<{ enrolarDispositivoResponse: { dispositivo: string } }>(await post(target, ENROLAR_PATH, await phone.enrolment(codigo)));
    phone.dispositivo = enrolled.enrolarDispositivoResponse.dispositivo;

    const token = await selected(target, rut);
    const login = await autentica(target, token, rut, '1234');
    expect(jsonOf<Record<string, { factores: { factor: number }[] }>>(login)[AUT]!.factores).toEqual([{ factor: 2 }]);
    const numeroCuenta = jsonOf<Record<string, { numeroCuenta: string }>>(login)[AUT]!.numeroCuenta;
    expect(codeOf(await post(target, '/prod/pago/producto/cuentavista/autorizar', { autorizarPagoProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token, factor: 2, rut, rutPago: rut } }), AUZ)).toBeUndefined();
    const pay = () => post(target, '/prod/pago/producto/cuentavista/pagar', { pagarProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token, rutTitular: rut, numeroCuenta, rutPago: rut, factor: 2 } });
    expect(codeOf(await pay(), PAG)).toBe('25');

    // The phone, from another network, sees the payment it is asked to approve and signs exactly that.
    const phoneNet = client(11);
    // The instance runs at business noon (libfaketime): the phone's clock agrees with the server's, as a real one would.
    const serverNow = new Date(String((await phoneNet.request({ method: 'GET', url: '/health' })).headers.date)).toISOString();
    const pending = jsonOf<{ solicitudesPendientesResponse: { solicitudes: Solicitud[] } }>(await post(phoneNet, PENDIENTES_PATH, await phone.pendingRequest(serverNow)));
    const [push] = pending.solicitudesPendientesResponse.solicitudes;
    expect(push).toMatchObject({ monto: 121_480, cuenta: '****5611', productos: ['****1414'], rutPagador: rut });
    expect(codeOf(await post(phoneNet, DECISION_PATH, await phone.decision(push!, 'aprobar')), DECISION_RESPONSE)).toBeUndefined();
    const paid = jsonOf<Record<string, { productoPagadoCV: { montoPagado: number } }>>(await pay());
    expect(paid[PAG]!.productoPagadoCV.montoPagado).toBe(121_480);
    // Booked in the core, which production reached by its name, over TLS.
    const books = await core.books();
    expect(books.savings.find((s) => s.externalId === '000031245611')!.balance).toBe(2_000_000 - 121_480);
  });

  it('limits call 11 per client', async () => {
    attacks++;
    const target = client(7);
    const report = { guardarLogRequest: { idPlataforma: 'web', origenLlamada: 'a', destinoLlamada: 'b', nivelLog: 'INFO', detalleLog: 'x', rut: '' } };
    const statuses = [];
    for (let i = 0; i < 31; i++) statuses.push((await post(target, '/prod/auditoria/guardarlog', report)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
    expect(jsonOf<Record<string, unknown>>(await post(target, '/prod/auditoria/guardarlog', report))).toHaveProperty('guardarLogResponse');
  });
});
