import { isKnownCode } from '@pago/domain/errors';
import { FAMILIES } from '@pago/domain/families';
import { isParameterName } from '@pago/domain/parameters';
import { parameterValueSchema } from '@pago/domain/schemas/parameters';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import type { ProductoSeleccionado } from '@pago/domain/schemas/call-seleccionar';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importedMemberSchema, type ImportReport } from '../../src/services/import-service';
import { createWebpayClient } from '../../src/services/webpay-client';
import { DATABASE_KINDS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { listar, oldestOf, payOwnAccount, post, seleccionar, solveCaptcha, startCard } from './flows';
import {
  CONTENT_TYPES,
  fits,
  hostileNumber,
  hostileString,
  hostileValue,
  mutated,
  oddHeaders,
  rawBody,
} from './hostile';
import { counted, injectTarget, jsonOf, type HttpRequest, type HttpResponse, type Target } from './http';
import { rutOf } from './fixtures';
import { captureLedger, checkInvariants, parameterValues, tableCounts, type LedgerSnapshot } from './ledger';
import { devicePending, enrolDevice, productNumbered } from '../support/member-calls';
import { AuthoriserDevice } from '../support/authoriser-device';
import {
  DECISION_PATH,
  DECISION_RESPONSE,
  ENROLAR_PATH,
  ENROLAR_RESPONSE,
  PENDIENTES_PATH,
  PENDIENTES_RESPONSE,
  type Solicitud,
} from '@pago/domain/call-autorizador';
import { RELIABILITY, recordFigures, RequestTally } from './settings';

// Part 1 of the reliability suite: every endpoint, fed schema-aware, random and raw hostile input, answers 4xx
// with the catalogue envelope (or the route's documented shape), or 200 with a business error — never 5xx — and
// moves no money and creates nothing it should not.

const RUNS = RELIABILITY.fuzzRuns;
/** Stands for a captcha solved just before the request is sent (a real one, good once); 'spent' for a replayed one. */
const FRESH_CAPTCHA = 'fresh-captcha';
const API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

/** What a response body must never show: stacks, SQL, driver or file names. */
const LEAK = /Failed query|DrizzleQueryError|PGlite|node_modules|\bat \S+ \(|\.ts:\d+|select .+ from |insert into|syntax error|violates|stack/gi;

/** A leak is something the server added: text the request itself carried and the answer echoes is not one. */
function leakIn(res: HttpResponse, request: HttpRequest): string | null {
  let sent = `${request.url} ${String(request.body ?? '')} ${JSON.stringify(request.headers ?? {})}`;
  try {
    sent += ` ${decodeURIComponent(request.url)}`;
  } catch {
    // not decodable: the raw URL is already there
  }
  for (const match of res.body.matchAll(LEAK)) {
    if (!sent.toLowerCase().includes(match[0].toLowerCase())) return match[0];
  }
  return null;
}

/** encodeURIComponent refuses lone surrogates; a browser would send U+FFFD in their place. */
const encode = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));

/** The catalogue envelope under one of the names, with a code of the catalogue (or the authoriser's own). */
function envelopeCode(res: HttpResponse, names: string[]): string | undefined {
  let body: Record<string, { error?: { errores?: { detalleError?: { codigo?: unknown; descripcion?: unknown } } } }>;
  try {
    body = jsonOf(res);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const detalle = body?.[name]?.error?.errores?.detalleError;
    if (detalle && typeof detalle.descripcion === 'string' && typeof detalle.codigo === 'string') return detalle.codigo;
  }
  return undefined;
}

const AUTHORISER_CODES = ['7', '8', '25', '50'];
const isCatalogued = (code: string | undefined) => code !== undefined && (isKnownCode(code) || AUTHORISER_CODES.includes(code));

/** What maskRut writes: an operator's answer shows RUTs only like this. */
const MASKED_RUT = /^(\*+\d{0,3}-[\dK]|\*)$/;

type Shape = 'envelope' | 'payment-host' | 'return' | 'pdf' | 'captcha' | 'sandbox' | 'admin';

interface Endpoint {
  name: string;
  method: HttpRequest['method'];
  /** Path and query, possibly fuzzed. */
  path: fc.Arbitrary<string>;
  responseName: string;
  shape: Shape;
  /** A well-formed body (with real tokens and ids now and then); null for GET. */
  valid: fc.Arbitrary<unknown> | null;
  /** The headers a real client sends. */
  headers: fc.Arbitrary<Record<string, string>>;
  /** Tables a well-formed call may legitimately add rows to (the money invariant holds regardless). */
  grows?: string[];
  /** Tables a well-formed call may legitimately remove rows from. */
  shrinks?: string[];
  /**
   * Rows the endpoint may change in place, read by natural key, and the keys one answer owns: a key that changed
   * without an answer owning it is a write the caller was refused (or a rejected row half-written).
   */
  writes?: { read: () => Promise<Map<string, string>>; owned: (request: HttpRequest, res: HttpResponse) => Set<string> };
  /** Sets the scene before each request. */
  prepare?: () => Promise<void>;
  /** The answer without the text clients or the operator stored and the endpoint reads back: echoing it is no leak. */
  withoutStoredText?: (body: unknown) => unknown;
  /** What a 2xx answer must also satisfy. */
  check?: (request: HttpRequest, res: HttpResponse, where: string) => void;
}

function describeRequest(r: HttpRequest): string {
  const body = r.body === undefined ? '' : String(r.body);
  return `${r.method} ${r.url.slice(0, 200)} headers=${JSON.stringify(r.headers).slice(0, 300)} body=${body.slice(0, 300)}${body.length > 300 ? `… (${body.length} chars)` : ''}`;
}

/** fast-check's own report would print multi-kilobyte inputs whole; this one keeps the failure readable. */
function compactReporter(out: fc.RunDetails<[HttpRequest]>): void {
  if (!out.failed) return;
  const example = out.counterexample?.[0];
  const error = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
  throw new Error(
    `Property failed after ${out.numRuns} run(s); replay with { seed: ${out.seed}, path: "${out.counterexamplePath}" }\n` +
      `${example ? describeRequest(example) : ''}\n${error.slice(0, 3_000)}`,
  );
}

/** The rules every answer follows, whatever came in. */
function expectWellFormed(endpoint: Endpoint, request: HttpRequest, res: HttpResponse): void {
  const where = `${endpoint.name}: ${describeRequest(request)} → ${res.status} ${res.body.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  const type = res.headers['content-type'] ?? '';
  const ownText = endpoint.withoutStoredText && res.status < 300 ? { ...res, body: JSON.stringify(endpoint.withoutStoredText(jsonOf(res))) } : res;
  if (!type.includes('application/pdf')) expect(leakIn(ownText, request), `leak in ${where}`).toBeNull();
  if (type.includes('application/json')) expect(() => JSON.parse(res.body), where).not.toThrow();
  // Anything the router does not know (wrong method, wrong path) is the generic envelope.
  const names = [endpoint.responseName, 'errorResponse'];

  if (res.status >= 400) {
    // The sandbox's own pages and API answer HTML pages, {ok:false} (409) or {error} (404): their documented shapes.
    if (endpoint.shape === 'sandbox' && (type.includes('text/html') || res.status === 409 || res.body === '{"error":"not found"}')) return;
    const code = envelopeCode(res, names);
    expect(isCatalogued(code), `4xx without the catalogue envelope: ${where}`).toBe(true);
    if (res.status === 429) expect(code).toBe('514');
    if (res.status === 415) expect(code).toBe('415');
    return;
  }
  switch (endpoint.shape) {
    case 'envelope': {
      expect(res.status, where).toBe(200);
      const body = jsonOf<Record<string, unknown>>(res);
      expect(Object.keys(body), where).toEqual([endpoint.responseName]);
      const code = envelopeCode(res, [endpoint.responseName]);
      if (code !== undefined) expect(isCatalogued(code), where).toBe(true);
      break;
    }
    case 'payment-host': {
      expect(res.status, where).toBe(200);
      const body = jsonOf<{ code?: number; token?: string; url?: string; descripcion?: string }>(res);
      const refused = typeof body.code === 'number' && body.code !== 0;
      if (refused) expect(isKnownCode(String(body.code)) && typeof body.descripcion === 'string', where).toBe(true);
      else expect(typeof body.token, where).toBe('string');
      break;
    }
    case 'return':
      expect(res.status, where).toBe(303);
      expect(res.headers.location ?? '', where).toMatch(/^\/pagoexpress\/webpayresult\?estado=(aprobado|parcial|rechazado|anulado|pendiente|error)(&idTransaccion=[0-9a-f]{32})?$/);
      break;
    case 'pdf':
      expect(res.status, where).toBe(200);
      expect(type, where).toBe('application/pdf');
      break;
    case 'captcha':
      expect(res.status, where).toBe(200);
      expect(jsonOf<{ signature?: string }>(res).signature, where).toBeTypeOf('string');
      break;
    case 'admin':
      expect(res.status, where).toBe(200);
      expect(Object.keys(jsonOf(res)), where).toEqual([endpoint.responseName]);
      // Whatever the path or body, only the operator's own token gets a 2xx.
      expect(request.headers?.authorization, where).toBe(`Bearer ${TEST_ADMIN_TOKEN}`);
      break;
    case 'sandbox':
      expect([200, 204], where).toContain(res.status);
      break;
  }
  endpoint.check?.(request, res, where);
}

describe.each(DATABASE_KINDS)('hostile input on every endpoint (%s)', (kind) => {
  let t: TestApp;
  let sim: FastifyInstance;
  const provider = new SimStore();
  const tally = new RequestTally();
  let target: Target;
  let inputs = 0;
  let violations = 0;
  const started = Date.now();

  // Real credentials and ids, so that well-formed inputs reach the business rules and not only the schemas.
  const ctx = {
    rut: '11111111-1',
    token: '',
    paidId: '',
    pendingId: '',
    spentCaptcha: '',
    cardRut: '9876543-3',
    cardToken: '',
    cardId: '',
    hostToken: '',
    webpayToken: '',
    buyOrder: '',
    pushRut: '14141414-3',
    pushId: '',
    // The authoriser's device calls, signed for real: C's phone, its push, and an enrolment not yet sent.
    deviceId: '',
    pendingBody: {} as unknown,
    decisionBody: {} as unknown,
    otherDecisionBody: {} as unknown,
    enrolmentBody: {} as unknown,
    pmNumero: '630055667788',
    cardAmount: 0,
    cardRef: '',
    selectable: [] as ProductoSeleccionado[],
  };
  let baseline: LedgerSnapshot;

  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store: provider });
    const simUrl = await sim.listen({ host: '127.0.0.1', port: 0 });
    t = await startTestApp(kind, {
      webpay: createWebpayClient({ baseUrl: simUrl, commerceCode: '597055555535', apiKey: API_KEY, timeoutMs: 5_000 }),
      config: { altchaCounter: { min: 10, max: 50 } },
    });
    const app = injectTarget(t.app);

    // Member A: one paid transaction (a voucher to ask for) and one pending (the session's current one).
    const a = await listar(app, ctx.rut);
    ctx.token = a.token;
    const pm = productNumbered(a.productos, ctx.pmNumero);
    await seleccionar(app, a.token, ctx.rut, [oldestOf(pm, 1)]);
    const [paid] = await payOwnAccount(app, { token: a.token, memberRut: ctx.rut, payerRut: ctx.rut, clave: '1234' });
    ctx.paidId = paid!.idTransaccion;
    const pc = productNumbered(a.productos, '410087654321');
    ctx.pendingId = (await seleccionar(app, a.token, ctx.rut, [oldestOf(pc, 1)])).idTransaccion;

    // A captcha solution already spent on a product list.
    ctx.spentCaptcha = await solveCaptcha(app);
    await post(app, '/prod/producto/listar', { listarDetalleProductosRequest: { userId: 'x', canalLlamada: 'PGEX', rut: '7654321-6' } }, { authorization: ctx.spentCaptcha });

    // Member B: a card payment opened on Webpay and left there.
    const b = await listar(app, ctx.cardRut);
    ctx.cardToken = b.token;
    const bpc = b.productos.find((p) => p.tipoFamiliaProducto === 'PC')!;
    const selection = [oldestOf(bpc, 1)];
    const cardSelection = await seleccionar(app, b.token, ctx.cardRut, selection);
    ctx.cardId = cardSelection.idTransaccion;
    ctx.cardAmount = cardSelection.montoTotal;
    ctx.cardRef = bpc.numeroProducto;
    const card = await startCard(app, { token: b.token, rut: ctx.cardRut }, { idTransaccion: ctx.cardId, producto: selection });
    ctx.hostToken = card.hostToken;
    ctx.webpayToken = card.webpayToken;
    ctx.buyOrder = provider.get(card.webpayToken)!.buyOrder;

    // Member C: a push waiting on the mobile authoriser of the phone C enrolled.
    const phone = await enrolDevice(t.app, ctx.pushRut);
    ctx.deviceId = phone.dispositivo!;
    const c = await listar(app, ctx.pushRut);
    await seleccionar(app, c.token, ctx.pushRut, [oldestOf(c.productos[0]!, 1)]);
    const [numero, dv] = ctx.pushRut.split('-') as [string, string];
    await post(
      app,
      '/prod/pago/producto/cuentavista/autentica',
      { autenticaConsultaFactoresRequest: { userId: 'x', canalLlamada: 'PGEX', token: c.token, autenticacion: { rut: numero, dv, clave: '1234' } } },
      { authorization: await solveCaptcha(app) },
    );
    await post(app, '/prod/pago/producto/cuentavista/autorizar', {
      autorizarPagoProductoCVRequest: { userId: 'x', canalLlamada: 'PGEX', token: c.token, factor: 2, rut: ctx.pushRut, rutPago: ctx.pushRut },
    });
    const [push] = await devicePending(t.app, phone);
    ctx.pushId = push!.solicitud;
    ctx.pendingBody = await phone.pendingRequest();
    ctx.decisionBody = await phone.decision(push!, 'rechazar');
    ctx.otherDecisionBody = await phone.decision(push!, 'aprobar', { monto: push!.monto + 1 } satisfies Partial<Solicitud>);
    const newPhone = await AuthoriserDevice.create();
    ctx.enrolmentBody = await newPhone.enrolment((await t.app.services.authoriser.issueEnrolmentCode('12345678-5', 'operador', 'fuzz'))!.codigo);

    // What member A's product list offers now: the starting points of well-formed selections.
    const listed = await listar(app, ctx.rut);
    ctx.selectable = listed.productos.flatMap((p) =>
      p.tipoFamiliaProducto === 'AH' ? [1_000, 4_999_999, 999].map((v) => oldestOf(p, 1, v)) : [oldestOf(p, 1), oldestOf(p, 2)],
    );
    target = counted(app, tally);
    baseline = await captureLedger(t.database.db);
  }, 120_000);

  afterAll(async () => {
    recordFigures({
      section: 'fuzz',
      database: kind,
      inputsTried: inputs,
      requestsServed: tally.served,
      responses5xx: tally.errors5xx,
      invariantViolations: violations,
      seconds: Math.round((Date.now() - started) / 1000),
    });
    await t?.close();
    await sim?.close();
  });

  // Well-formed values, real ones often (so the business rules answer), hostile ones that still fit the schema
  // otherwise; `mutated` then breaks one thing at a time.
  const token = () => fc.oneof({ weight: 3, arbitrary: fc.constant(ctx.token) }, { weight: 1, arbitrary: fc.constant(ctx.cardToken) }, { weight: 1, arbitrary: fits(128) });
  const rut = (max = 12) =>
    fc.oneof({ weight: 3, arbitrary: fc.constant(ctx.rut) }, { weight: 1, arbitrary: fc.constantFrom('9876543-3', '11.111.111-1', '5126663-3', '11111111-2', '19191919-K') }, { weight: 1, arbitrary: fits(max, 3) });
  const id = () => fc.oneof(fc.constant(ctx.paidId), fc.constant(ctx.pendingId), fc.constant(ctx.cardId), fc.stringMatching(/^[0-9a-f]{32}$/), fits(64));
  const userId = fc.oneof(fc.constant('11111111-1'), fits(64));
  const canal = fc.constantFrom('PGEX', 'PGEX', 'PGEX', 'SPUB');
  const amount = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(156_300, 62_150, 85_430, 5_000, 10_000, 20_000, 1_000, 4_999_999, 5_000_000, 999) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 9_999_999_999 }) },
    { weight: 1, arbitrary: hostileNumber },
  );
  const captcha = fc.constantFrom(FRESH_CAPTCHA, FRESH_CAPTCHA, 'spent');
  const json = (extra: fc.Arbitrary<Record<string, string>> = fc.constant({})) => extra.map((h) => ({ 'content-type': 'application/json', ...h }));
  const fixed = (path: string) => fc.constant(path);
  /** Keys and signatures: well-formed base64url of any bytes, or anything that fits the field. */
  const base64url = (max: number) => fc.oneof(fc.uint8Array({ minLength: 1, maxLength: Math.floor((max * 3) / 4) }).map((b) => Buffer.from(b).toString('base64url')), fits(max));
  const query = (path: string, keys: string[]) =>
    fc
      .dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })), fc.oneof(hostileString, fc.constantFrom(ctx.rut, ctx.webpayToken, ctx.buyOrder)), { maxKeys: 4 })
      .map((q) => {
        const search = new URLSearchParams(q).toString();
        return search ? `${path}?${search}` : path;
      });

  // The operator's calls. The token is right most of the time (so the routes' own rules answer), else missing,
  // wrong, a prefix of the right one, in another scheme, or garbage.
  const adminAuth = fc
    .oneof(
      { weight: 5, arbitrary: fc.constant<string | undefined>(`Bearer ${TEST_ADMIN_TOKEN}`) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('Bearer wrong-token-0123456789', `Bearer ${TEST_ADMIN_TOKEN.slice(0, 10)}`, `Basic ${TEST_ADMIN_TOKEN}`, `bearer ${TEST_ADMIN_TOKEN}`, `Bearer ${TEST_ADMIN_TOKEN}0`) },
      { weight: 1, arbitrary: hostileString.map((s) => s.replace(/[^\x20-\x7e]/g, '')) },
    )
    .map((authorization): Record<string, string> => (authorization === undefined ? {} : { authorization }));

  /** Rows by natural key, each as JSON: what the operator's calls may change in place. */
  const keyedRows = async (query: SQL) => ((await t.database.db.execute(query)) as unknown as { rows: { key: string; value: string }[] }).rows.map((r) => [r.key, r.value] as const);
  const operatorState = async () =>
    new Map([
      ...(await keyedRows(sql`select 'm:' || m.rut as key, (to_jsonb(m) - 'created_at')::text as value from members m`)),
      ...(await keyedRows(sql`select 'c:' || m.rut as key, to_jsonb(c)::text as value from coordinate_cards c join members m on m.id = c.member_id`)),
      ...(await keyedRows(sql`select 'a:' || a.numero_cuenta as key, to_jsonb(a)::text as value from accounts a`)),
      ...(await keyedRows(sql`select 'p:' || p.numero_producto as key, (to_jsonb(p) - 'created_at')::text as value from products p`)),
      ...(await keyedRows(sql`select 'i:' || p.numero_producto || ':' || i.numero_cuota as key, to_jsonb(i)::text as value from instalments i join products p on p.id = i.product_id`)),
    ]);

  // Blocked again before every call, so that a refused unblock that still cleared a block would show.
  const BLOCKED_PASSWORD = '13579246-2';
  const BLOCKED_CARD = '15432876-9';
  const block = async () => {
    await t.database.db.execute(sql`update members set password_failures = 3, password_blocked_at = now() where rut = ${BLOCKED_PASSWORD}`);
    await t.database.db.execute(sql`update coordinate_cards set failures = 3, blocked_at = now() where member_id = (select id from members where rut = ${BLOCKED_CARD})`);
  };
  const unblockRut = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(BLOCKED_PASSWORD, '13.579.246-2', BLOCKED_CARD, '15.432.876-9', ctx.rut, ctx.cardRut, '7654321-6', '5126663-3', '13579246-K') },
    { weight: 1, arbitrary: fits(16, 3) },
    { weight: 1, arbitrary: hostileString },
  );
  const rutInPath = (url: string) => {
    try {
      return canonicalRut(decodeURIComponent(/^\/admin\/socios\/([^/?]*)\//.exec(url)?.[1] ?? ''));
    } catch {
      return null;
    }
  };
  const unblock = (action: 'desbloquear-clave' | 'desbloquear-tarjeta'): Endpoint => ({
    name: `admin POST /admin/socios/:rut/${action}`,
    method: 'POST',
    path: unblockRut.map((r) => `/admin/socios/${encode(r)}/${action}`),
    responseName: 'operacionesResponse',
    shape: 'admin',
    valid: null,
    headers: adminAuth,
    prepare: block,
    // The password's unblock forgets the member's blocks on every client (decision 032).
    ...(action === 'desbloquear-clave' && { shrinks: ['password_client_guards'] }),
    writes: {
      read: operatorState,
      // An unblock clears the flags of the member it names, and nothing else.
      owned: (request, res) => {
        const rut = res.status === 200 ? rutInPath(request.url) : null;
        return new Set(rut ? [`m:${rut}`, `c:${rut}`] : []);
      },
    },
    check: (request, res, where) => {
      expect(rutInPath(request.url), where).not.toBeNull();
      expect(jsonOf(res), where).toEqual({ operacionesResponse: { codigo: '200' } });
    },
  });

  // The nightly load: members the seed lacks, seed members (their profile may change), and the accounts and
  // products of members it never names (so a row naming one is refused, not a legitimate change of balances).
  // Each field fits the schema most of the time, so that rows reach the database; `mutated` breaks one thing.
  const importMoney = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(0, 1_000, 40_000, 250_000, 2_147_483_647) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 5_000_000 }) },
    { weight: 1, arbitrary: fc.constantFrom(2_147_483_648, 9_999_999_999) },
    { weight: 1, arbitrary: hostileNumber },
  );
  const importRut = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(ctx.rut, '11.111.111-1', ctx.cardRut, BLOCKED_PASSWORD, '7654321-6') },
    { weight: 4, arbitrary: fc.integer({ min: 40_000_001, max: 40_000_006 }).map(rutOf) },
    { weight: 1, arbitrary: fits(16) },
  );
  const importDate = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('20301201', '20280229') },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('20290229', '00000000'), fc.stringMatching(/^\d{8}$/)) },
  );
  const digits = fc.stringMatching(/^\d{6,20}$/);
  const importedMember = fc.record(
    {
      rut: importRut,
      nombre: fc.oneof(fc.constant('Socio de Prueba'), fits(120)),
      correo: fc.constantFrom('socio.prueba@example.cl', 'a.b+c@sub.example.cl'),
      cuenta: fc.record({
        numeroCuenta: fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 1, max: 6 }).map((n) => `99000000000${n}`) },
          { weight: 1, arbitrary: fc.constantFrom('000031245602', '000031245604') },
          { weight: 1, arbitrary: digits },
        ),
        saldo: importMoney,
      }),
      productos: fc.array(
        fc.record(
          {
            familia: fc.constantFrom(...FAMILIES),
            numeroProducto: fc.oneof(
              { weight: 4, arbitrary: fc.integer({ min: 1, max: 6 }).map((n) => `99100000000${n}`) },
              { weight: 1, arbitrary: fc.constantFrom('800056780001', '630043218765', '5412759876543210') },
              { weight: 1, arbitrary: digits },
            ),
            saldo: importMoney,
            deudaTotal: importMoney,
            permiteAbono: fc.boolean(),
            fechaFacturacion: importDate,
            cuotas: fc.array(
              fc.record(
                {
                  numeroCuota: fc.oneof(fc.constantFrom(1, 2, 3), fc.integer({ min: 0, max: 1_000 })),
                  monto: importMoney,
                  montoPendiente: fc.constantFrom(0, 1_000, 40_000),
                  fechaVencimiento: importDate,
                  medioPago: fc.constant('CONVENIO'),
                },
                { requiredKeys: ['numeroCuota', 'monto', 'fechaVencimiento'] },
              ),
              { maxLength: 3 },
            ),
          },
          { requiredKeys: ['familia', 'numeroProducto'] },
        ),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: ['rut', 'nombre'] },
  );
  const sociosOf = (request: HttpRequest) => (JSON.parse(String(request.body).replace(/^\ufeff/, '')) as { socios: unknown[] }).socios;

  // Audit events whose detail is text a browser (call 11) or the operator (a parameter's value) typed.
  const TYPED_DETAIL = new Set(['navegador.log', 'admin.parametro.actualizado']);

  const endpoints = (): Endpoint[] => [
    {
      name: 'call 1 parametro/consultar',
      method: 'POST',
      path: fixed('/prod/parametro/consultar'),
      responseName: 'consultarParametrosResponse',
      shape: 'envelope',
      valid: fc.record({ consultarParametrosRequest: fc.record({ userId, canalLlamada: canal, tipo: fc.constantFrom('PE', 'XX') }) }),
      headers: json(),
    },
    {
      name: 'call 2 producto/listar',
      method: 'POST',
      path: fixed('/prod/producto/listar'),
      responseName: 'listarDetalleProductosResponse',
      shape: 'envelope',
      valid: fc.record({ listarDetalleProductosRequest: fc.record({ userId, canalLlamada: canal, rut: rut(16) }) }),
      headers: json(fc.record({ authorization: fc.oneof(captcha, hostileString.map((s) => s.replace(/[^\x20-\x7e]/g, ''))) })),
      grows: ['sessions', 'captcha_uses'],
    },
    {
      name: 'call 3 producto/seleccionar',
      method: 'POST',
      path: fixed('/prod/producto/seleccionar'),
      responseName: 'seleccionarProductoResponse',
      shape: 'envelope',
      valid: fc.record({
        seleccionarProductoRequest: fc.record({
          userId,
          canalLlamada: canal,
          token: token(),
          rut: rut(),
          producto: fc.oneof(
            // What the member's own product list offers (the business rules decide), or something made up.
            { weight: 3, arbitrary: fc.constantFrom(...ctx.selectable, null).map((p) => (p ? [p] : [])) },
            {
              weight: 1,
              arbitrary: fc.array(
                fc.record({
                  // The listed references, the products' own numbers (which the list no longer gives), or anything.
                  numeroProducto: fc.oneof(fc.constantFrom(...ctx.selectable.map((p) => p.numeroProducto), ctx.pmNumero, '410012345678', '800012340001'), fits(32)),
                  tipoFamiliaProducto: fc.constantFrom('PC', 'PM', 'CP', 'AH', 'TC', 'HI'),
                  nombreFamiliaProducto: fits(64),
                  detalleProducto: fc.array(
                    fc.record({ numeroCuota: fc.stringMatching(/^\d{1,6}$/), valorAPagar: amount, fechaVencimiento: fc.oneof(fc.constant('0'), fc.stringMatching(/^\d{8}$/)) }),
                    { minLength: 1, maxLength: 3 },
                  ),
                }),
                { minLength: 1, maxLength: 3 },
              ),
            },
          ),
        }),
      }),
      headers: json(),
      grows: ['transactions', 'transaction_items'],
    },
    {
      name: 'call 4 cuentavista/autentica',
      method: 'POST',
      path: fixed('/prod/pago/producto/cuentavista/autentica'),
      responseName: 'autenticaConsultaFactoresResponse',
      shape: 'envelope',
      valid: fc.record({
        autenticaConsultaFactoresRequest: fc.record({
          userId,
          canalLlamada: canal,
          token: token(),
          autenticacion: fc.record({
            rut: fc.oneof(fc.constantFrom('11111111', '19191919', '9876543'), fc.stringMatching(/^\d{1,8}$/)),
            dv: fc.constantFrom('1', 'K', 'k', '3', '0'),
            clave: fc.oneof(fc.constant('1234'), fits(8)),
          }),
        }),
      }),
      headers: json(fc.record({ authorization: captcha }, { requiredKeys: [] })),
      // A wrong password for a RUT with no online password is counted as a member's is; the right one ('1234' for a
      // demo RUT) trusts the browser it came from (decision 041).
      grows: ['captcha_uses', 'unknown_payer_attempts', 'password_client_guards', 'trusted_devices'],
    },
    {
      name: 'call 5 cuentavista/autorizar',
      method: 'POST',
      path: fixed('/prod/pago/producto/cuentavista/autorizar'),
      responseName: 'autorizarPagoProductoCVResponse',
      shape: 'envelope',
      valid: fc.record({
        autorizarPagoProductoCVRequest: fc.record({ userId, canalLlamada: canal, token: token(), factor: fc.constantFrom(1, 2), rut: rut(), rutPago: rut() }),
      }),
      headers: json(),
      grows: ['authorizations'],
    },
    {
      name: 'call 6 cuentavista/pagar',
      method: 'POST',
      path: fixed('/prod/pago/producto/cuentavista/pagar'),
      responseName: 'pagarProductoCVResponse',
      shape: 'envelope',
      valid: fc.record({
        pagarProductoCVRequest: fc.record({
          userId,
          canalLlamada: canal,
          token: token(),
          rutTitular: rut(),
          numeroCuenta: fc.oneof(fc.constant('000031245601'), fits(32)),
          rutPago: rut(),
          factor: fc.constantFrom(1, 2),
          desafio: fc.record({ item: fc.array(fc.record({ valor: fc.stringMatching(/^\d{2}$/) }), { minLength: 3, maxLength: 3 }) }),
        }),
      }),
      headers: json(),
    },
    {
      name: 'call 7 pago/consultar',
      method: 'POST',
      path: fixed('/prod/pago/consultar'),
      responseName: 'consultarPagoResponse',
      shape: 'envelope',
      valid: fc.record({ consultarPagoRequest: fc.record({ userId, canalLlamada: canal, idTransaccion: id(), token: token() }) }),
      headers: json(),
    },
    {
      name: 'call 8 notificaciones/enviar',
      method: 'POST',
      path: fixed('/prod/notificaciones/enviar'),
      responseName: 'enviarComprobantePagoResponse',
      shape: 'envelope',
      valid: fc.record({
        enviarComprobantePagoRequest: fc.record({ userId, canalLlamada: canal, token: token(), rut: rut(), correo: fc.oneof(fc.constant('camila.rojas@example.cl'), fc.emailAddress(), fits(254, 3)) }),
      }),
      headers: json(
        fc.record({
          authorization: fc.oneof(
            fc.constant(`Basic ${Buffer.from(`${ctx.rut}:${ctx.token}`).toString('base64')}`),
            hostileString.map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
          ),
        }),
      ),
      grows: ['outbox'],
    },
    {
      name: 'call 11 auditoria/guardarlog',
      method: 'POST',
      path: fixed('/prod/auditoria/guardarlog'),
      responseName: 'guardarLogResponse',
      shape: 'envelope',
      valid: fc.record({
        guardarLogRequest: fc.record({
          idPlataforma: fits(32),
          origenLlamada: fits(120),
          destinoLlamada: fits(120),
          nivelLog: fc.constantFrom('INFO', 'WARN', 'ERROR'),
          detalleLog: fits(1000, 0),
          rut: rut(),
        }),
      }),
      headers: json(),
    },
    {
      name: 'call 9 pagoexpress/auth',
      method: 'POST',
      path: fixed('/api/pagoexpress/auth'),
      responseName: 'authResponse',
      shape: 'payment-host',
      valid: fc.record({ idTransaction: id() }),
      headers: json(fc.record({ authorization: fc.oneof(fc.constant(`Bearer ${ctx.cardToken}`), fc.constant(`Bearer ${ctx.token}`), hostileString.map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`)) })),
    },
    {
      name: 'call 10 pagoexpress/initMall',
      method: 'POST',
      path: fixed('/api/pagoexpress/initMall'),
      responseName: 'initMallResponse',
      shape: 'payment-host',
      valid: fc.record({
        sessionId: fc.oneof(fc.constant(`${ctx.cardToken}${ctx.cardRut}`), fits(200)),
        transactionId: id(),
        storesTransaction: fc.oneof(
          fc.constant([{ amount: ctx.cardAmount, commerceCode: '597055555536', transactionId: ctx.cardRef }]),
          fc.array(fc.record({ amount, commerceCode: fc.constantFrom('597055555536', '597055555537', '000000000000'), transactionId: fc.oneof(fc.constantFrom(ctx.cardRef, '410098765431'), fits(32)) }), { minLength: 1, maxLength: 3 }),
        ),
      }),
      headers: json(fc.record({ authorization: fc.oneof(fc.constant(`Bearer ${ctx.hostToken}`), hostileString.map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`)) })),
      grows: ['webpay_attempts'],
    },
    {
      name: 'Webpay return (POST)',
      method: 'POST',
      path: fixed('/api/pagoexpress/webpay/return'),
      responseName: 'webpayReturn',
      shape: 'return',
      valid: fc.record(
        {
          token_ws: fc.oneof(fc.constant(ctx.webpayToken), hostileString),
          TBK_TOKEN: fc.oneof(fc.constant(ctx.webpayToken), hostileString),
          TBK_ORDEN_COMPRA: fc.oneof(fc.constant(ctx.buyOrder), hostileString),
          TBK_ID_SESION: hostileString,
        },
        { requiredKeys: [] },
      ),
      headers: fc.constant({ 'content-type': 'application/json' }),
    },
    {
      name: 'Webpay return (GET)',
      method: 'GET',
      path: query('/api/pagoexpress/webpay/return', ['token_ws', 'TBK_TOKEN', 'TBK_ORDEN_COMPRA', 'TBK_ID_SESION']),
      responseName: 'webpayReturn',
      shape: 'return',
      valid: null,
      headers: fc.constant({}),
    },
    {
      name: 'voucher PDF',
      method: 'POST',
      path: fixed('/api/comprobante/pdf'),
      responseName: 'comprobantePdfResponse',
      shape: 'pdf',
      valid: fc.record({ token: token(), idTransaccion: id() }),
      headers: json(),
    },
    {
      name: 'captcha challenge',
      method: 'GET',
      path: query('/api/captcha/challenge', ['algorithm', 'counter']),
      responseName: 'captchaResponse',
      shape: 'captcha',
      valid: null,
      headers: fc.constant({}),
    },
    {
      name: 'admin GET /admin/parametros',
      method: 'GET',
      path: query('/admin/parametros', ['nombre']),
      responseName: 'parametrosResponse',
      shape: 'admin',
      valid: null,
      headers: fc.record({ authorization: fc.oneof(fc.constant(`Bearer ${TEST_ADMIN_TOKEN}`), fc.constant('Bearer sandbox-admin-token'), hostileString.map((s) => s.replace(/[^\x20-\x7e]/g, ''))) }, { requiredKeys: [] }),
      // The values are whatever the operator (here, the fuzz's own PUTs) stored.
      withoutStoredText: (body) => {
        const { parametrosResponse } = body as { parametrosResponse: { parametros: { valor: string }[] } };
        return { parametrosResponse: { parametros: parametrosResponse.parametros.map((p) => ({ ...p, valor: '' })) } };
      },
    },
    {
      name: 'admin PUT /admin/parametros/:nombre',
      method: 'PUT',
      path: fc.oneof(fc.constantFrom('Mantencion', 'sessionTimeOut', 'btnPayPC', 'pagoWPDebito', 'cancelTrxMsg', 'PC'), hostileString).map((n) => `/admin/parametros/${encode(n)}`),
      responseName: 'parametrosResponse',
      shape: 'admin',
      valid: fc.record({ valor: fc.oneof(fc.constantFrom('0', '1', '5', 'Pagar'), hostileString) }),
      headers: json(fc.record({ authorization: fc.oneof(fc.constant(`Bearer ${TEST_ADMIN_TOKEN}`), fc.constant('Bearer wrong-token-0123456789'), hostileString.map((s) => s.replace(/[^\x20-\x7e]/g, ''))) }, { requiredKeys: [] })),
      // 'anterior' is the value an earlier PUT of the fuzz stored.
      withoutStoredText: (body) => {
        const { parametrosResponse } = body as { parametrosResponse: Record<string, unknown> };
        return { parametrosResponse: { ...parametrosResponse, anterior: '' } };
      },
    },
    unblock('desbloquear-clave'),
    unblock('desbloquear-tarjeta'),
    {
      name: 'admin POST /admin/importacion',
      method: 'POST',
      path: fixed('/admin/importacion'),
      responseName: 'operacionesResponse',
      shape: 'admin',
      valid: fc.record({ corte: fc.constant(new Date().toISOString()), socios: fc.array(importedMember, { minLength: 1, maxLength: 3 }) }),
      headers: json(adminAuth),
      grows: ['members', 'accounts', 'products', 'instalments', 'mail_queue'],
      writes: {
        read: operatorState,
        // Only the rows the answer accepted were written, each whole; a refused call or row wrote nothing.
        owned: (request, res) => {
          const keys = new Set<string>();
          if (res.status !== 200) return keys;
          const rejected = new Set(jsonOf<{ operacionesResponse: ImportReport }>(res).operacionesResponse.rechazados.map((r) => r.fila));
          sociosOf(request).forEach((raw, i) => {
            if (rejected.has(i + 1)) return;
            const row = importedMemberSchema.parse(raw);
            keys.add(`m:${canonicalRut(row.rut)}`);
            if (row.cuenta) keys.add(`a:${row.cuenta.numeroCuenta}`);
            for (const p of row.productos) {
              keys.add(`p:${p.numeroProducto}`);
              for (const c of p.cuotas) keys.add(`i:${p.numeroProducto}:${c.numeroCuota}`);
            }
          });
          return keys;
        },
      },
      check: (request, res, where) => {
        const report = jsonOf<{ operacionesResponse: ImportReport }>(res).operacionesResponse;
        expect(report.recibidos, where).toBe(sociosOf(request).length);
        expect(report.aceptados + report.rechazados.length, where).toBe(report.recibidos);
        for (const row of report.rechazados) {
          if (row.rut) expect(row.rut, where).toMatch(MASKED_RUT);
          expect(row.motivos.length, where).toBeGreaterThan(0);
        }
      },
    },
    {
      name: 'admin GET /admin/transacciones/:id',
      method: 'GET',
      path: fc.oneof({ weight: 3, arbitrary: id() }, { weight: 1, arbitrary: hostileString }).map((i) => `/admin/transacciones/${encode(i)}`),
      responseName: 'operacionesResponse',
      shape: 'admin',
      valid: null,
      headers: adminAuth,
      check: (request, res, where) => {
        const found = jsonOf<{ operacionesResponse: { transaccion: Record<string, unknown> } }>(res).operacionesResponse;
        expect(found.transaccion.idTransaccion, where).toBe(request.url.split('/').at(-1));
        expect(found.transaccion, where).not.toHaveProperty('hostTokenHash');
        // The operator sees the payment, never a credential of it.
        for (const secret of [ctx.token, ctx.cardToken, ctx.hostToken]) expect(res.body.includes(secret), where).toBe(false);
      },
    },
    {
      name: 'admin GET /admin/auditoria',
      method: 'GET',
      path: fc.oneof(
        fc
          .record(
            {
              kind: fc.oneof(fc.constantFrom('admin.importacion', 'admin.parametro.actualizado', 'navegador.log', 'clave.correcta', 'pago.cuentavista', 'captcha.rechazado'), hostileString),
              limit: fc.oneof(fc.constantFrom('1', '100', '500', '501', '0', '-1', '1.5', '1e2', ' 7', 'abc', ''), hostileString),
            },
            { requiredKeys: [] },
          )
          .map((q) => {
            const search = new URLSearchParams(q).toString();
            return search ? `/admin/auditoria?${search}` : '/admin/auditoria';
          }),
        query('/admin/auditoria', ['kind', 'limit']),
      ),
      responseName: 'operacionesResponse',
      shape: 'admin',
      valid: null,
      headers: adminAuth,
      withoutStoredText: (body) => {
        const { operacionesResponse } = body as { operacionesResponse: { eventos: { kind: string }[] } };
        return { operacionesResponse: { eventos: operacionesResponse.eventos.map((e) => (TYPED_DETAIL.has(e.kind) ? { ...e, detail: {} } : e)) } };
      },
      check: (request, res, where) => {
        const { eventos } = jsonOf<{ operacionesResponse: { eventos: { kind: string; rutMasked: string | null }[] } }>(res).operacionesResponse;
        const asked = new URL(request.url, 'http://api.test').searchParams;
        const limit = asked.get('limit');
        expect(eventos.length, where).toBeLessThanOrEqual(limit && /^\d+$/.test(limit) ? Number(limit) : 100);
        const kind = asked.get('kind');
        if (kind && /^[\w.]+$/.test(kind)) for (const e of eventos) expect(e.kind, where).toBe(kind);
        for (const e of eventos) if (e.rutMasked) expect(e.rutMasked, where).toMatch(MASKED_RUT);
      },
    },
    {
      name: 'sandbox pages',
      method: 'GET',
      path: fc.oneof(
        query('/sandbox', ['rut']),
        query('/sandbox/coordinates', ['rut']),
        query('/sandbox/outbox', ['page']),
        query('/sandbox/authorizer', ['rut']),
        fc.tuple(fc.oneof(fc.uuid(), hostileString), fc.oneof(fc.integer({ min: -5, max: 30 }).map(String), hostileString)).map(([i, n]) => `/sandbox/outbox/${encode(i)}/attachments/${encode(n)}`),
      ),
      responseName: 'errorResponse',
      shape: 'sandbox',
      valid: null,
      headers: fc.constant({}),
    },
    {
      name: 'sandbox authoriser enrolment code',
      method: 'POST',
      path: fixed('/sandbox/api/authorizer/enrolment-code'),
      responseName: 'errorResponse',
      shape: 'sandbox',
      valid: fc.record({ rut: fc.oneof(fc.constant(ctx.pushRut), rut(), hostileString) }),
      headers: json(),
      grows: ['authoriser_enrolment_codes'],
    },
    {
      name: 'authoriser enrolar',
      method: 'POST',
      path: fixed(ENROLAR_PATH),
      responseName: ENROLAR_RESPONSE,
      shape: 'envelope',
      valid: fc.oneof(
        fc.constant(ctx.enrolmentBody),
        fc.record({ enrolarDispositivoRequest: fc.record({ codigo: fits(64), clavePublica: base64url(200), nombre: fits(60), firma: base64url(100) }) }),
      ),
      headers: json(),
      grows: ['authoriser_devices'],
    },
    {
      name: 'authoriser pendientes',
      method: 'POST',
      path: fixed(PENDIENTES_PATH),
      responseName: PENDIENTES_RESPONSE,
      shape: 'envelope',
      valid: fc.oneof(
        fc.constant(ctx.pendingBody),
        fc.record({
          solicitudesPendientesRequest: fc.record({
            dispositivo: fc.oneof(fc.constant(ctx.deviceId), fc.uuid()),
            fecha: fc.oneof(fc.constant(new Date().toISOString()), fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
            firma: base64url(100),
          }),
        }),
      ),
      headers: json(),
    },
    {
      name: 'authoriser decision',
      method: 'POST',
      path: fixed(DECISION_PATH),
      responseName: DECISION_RESPONSE,
      shape: 'envelope',
      valid: fc.oneof(
        fc.constant(ctx.otherDecisionBody),
        fc.constant(ctx.decisionBody),
        fc.record({
          decidirSolicitudRequest: fc.record({
            dispositivo: fc.oneof(fc.constant(ctx.deviceId), fc.uuid()),
            solicitud: fc.oneof(fc.constant(ctx.pushId), fc.uuid()),
            decision: fc.constantFrom('aprobar', 'rechazar', 'quizas'),
            firma: base64url(100),
          }),
        }),
      ),
      headers: json(),
    },
    {
      name: 'admin POST /admin/socios/:rut/autorizador/codigo',
      method: 'POST',
      path: unblockRut.map((r) => `/admin/socios/${encode(r)}/autorizador/codigo`),
      responseName: 'operacionesResponse',
      shape: 'admin',
      valid: null,
      headers: adminAuth,
      grows: ['authoriser_enrolment_codes'],
    },
    {
      name: 'admin GET /admin/socios/:rut/autorizador/dispositivos',
      method: 'GET',
      path: unblockRut.map((r) => `/admin/socios/${encode(r)}/autorizador/dispositivos`),
      responseName: 'operacionesResponse',
      shape: 'admin',
      valid: null,
      headers: adminAuth,
      // The operator sees devices, never their keys.
      check: (_request, res, where) => expect(res.body.includes('publicKey') || res.body.includes('MFkw'), where).toBe(false),
    },
    {
      name: 'admin POST /admin/autorizador/dispositivos/:id/revocar',
      method: 'POST',
      path: fc.oneof(fc.uuid(), hostileString).map((i) => `/admin/autorizador/dispositivos/${encode(i)}/revocar`),
      responseName: 'operacionesResponse',
      shape: 'admin',
      valid: null,
      headers: adminAuth,
    },
    {
      name: 'admin GET /admin/webpay/apartados',
      method: 'GET',
      path: fixed('/admin/webpay/apartados'),
      responseName: 'consolaResponse',
      shape: 'admin',
      valid: null,
      headers: adminAuth,
    },
    {
      // The card payment left open on Webpay is not set aside: every call is refused, and nothing is proposed.
      name: 'admin POST /admin/webpay/:ordenCompra/devolver',
      method: 'POST',
      path: fc.oneof(fc.constant(ctx.buyOrder), fc.constant('PO0123456789abcdef'), hostileString).map((o) => `/admin/webpay/${encode(o)}/devolver`),
      responseName: 'consolaResponse',
      shape: 'admin',
      valid: fc.record({ motivo: fc.oneof(fc.constantFrom('Cobro doble del socio', ''), hostileString) }),
      headers: json(adminAuth),
    },
    {
      name: 'admin GET /admin/cierre',
      method: 'GET',
      path: fc.oneof(fc.constantFrom('2026-01-05', '2026-02-30', '2999-12-31'), hostileString).map((f) => `/admin/cierre?fecha=${encode(f)}`),
      responseName: 'cierreResponse',
      shape: 'admin',
      valid: null,
      headers: adminAuth,
    },
    {
      name: 'admin POST /admin/cierre/:fecha/firmar',
      method: 'POST',
      // A day over and agreeing would be closable, a change: only days refused as not a date or not over.
      path: fc.oneof(fc.constantFrom('2026-02-30', '2999-12-31'), hostileString).map((f) => `/admin/cierre/${encode(f)}/firmar`),
      responseName: 'cierreResponse',
      shape: 'admin',
      valid: fc.record({ motivo: fc.oneof(fc.constantFrom('Revisado contra la cartola', ''), hostileString) }),
      headers: json(adminAuth),
    },
  ];

  /** Schema-aware, random and raw inputs for one endpoint. */
  function requests(e: Endpoint): fc.Arbitrary<HttpRequest> {
    const withBody = (body: fc.Arbitrary<string | undefined>, headers: fc.Arbitrary<Record<string, string>>, method: fc.Arbitrary<HttpRequest['method']> = fc.constant(e.method)) =>
      fc.record({ method, url: e.path, headers, body }).map((r) => (r.body === undefined ? { method: r.method, url: r.url, headers: r.headers } : r) as HttpRequest);
    const json = (value: fc.Arbitrary<unknown>) => value.map((v) => (v === undefined ? undefined : JSON.stringify(v)));
    const valid = e.valid ?? fc.constant(undefined);
    const merged = fc.tuple(e.headers, oddHeaders).map(([h, odd]) => ({ ...odd, ...h, 'content-type': h['content-type'] ?? odd['content-type'] ?? 'application/json' }));
    const families: fc.Arbitrary<HttpRequest>[] = [
      // Schema-aware: a well-formed body with one thing wrong (or nothing: the business rules answer).
      withBody(e.valid ? json(mutated(valid)) : fc.constant(undefined), e.headers),
      // Random values of any type, with odd headers.
      withBody(json(hostileValue), merged),
      // Raw: wrong content types, broken JSON, non-objects, wrong methods.
      valid.chain((sample) =>
        withBody(
          rawBody(sample),
          fc.tuple(e.headers, fc.constantFrom(...CONTENT_TYPES)).map(([h, type]) => ({ ...h, 'content-type': type })),
          fc.constantFrom<HttpRequest['method']>(e.method, e.method, 'PUT', 'PATCH', 'DELETE', e.method === 'GET' ? 'POST' : 'GET'),
        ),
      ),
    ];
    return fc.oneof(...families);
  }

  // The endpoints' inputs need the context filled in by beforeAll, so each test builds the list again when it runs.
  for (const { name } of endpoints()) {
    it(`${name}: answers hostile input with 4xx or a business error and changes nothing`, async () => {
      const e = endpoints().find((x) => x.name === name)!;
      const countsBefore = await tableCounts(t.database.db);
      const paramsBefore = await parameterValues(t.database.db);
      const outcomes = new Map<string, number>();
      const changedParams = new Map<string, string>();
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(requests(e), async (request) => {
          runs++;
          const auth = request.headers?.authorization;
          // Straight from the service: the challenge route's own limit (60 a minute) is not what is tested here.
          if (auth === FRESH_CAPTCHA) {
            const challenge = await t.app.services.captcha.challenge();
            const solution = await solveChallenge({ challenge, deriveKey });
            request.headers!.authorization = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
          }
          if (auth === 'spent') request.headers!.authorization = ctx.spentCaptcha;
          await e.prepare?.();
          const stateBefore = await e.writes?.read();
          const res = await target.request(request);
          expectWellFormed(e, request, res);
          if (e.writes && stateBefore) {
            const stateAfter = await e.writes.read();
            const owned = e.writes.owned(request, res);
            const stray = [...new Set([...stateBefore.keys(), ...stateAfter.keys()])].filter((k) => stateBefore.get(k) !== stateAfter.get(k) && !owned.has(k));
            // Keys name members by RUT: masked, like anything this suite prints.
            const shown = stray.map((k) => k.replace(/^([mc]):(.+)$/, (_all, kind: string, rut: string) => `${kind}:${maskRut(rut)}`));
            expect(shown, `${e.name}: rows changed that no part of the answer owns: ${describeRequest(request)} → ${res.status} ${res.body.slice(0, 300)}`).toEqual([]);
          }
          const outcome = `${res.status}:${envelopeCode(res, [e.responseName, 'errorResponse']) ?? (res.status === 200 ? 'ok' : '')}`;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          if (e.shape === 'admin' && e.method === 'PUT' && res.status === 200) {
            const { nombre, valor } = jsonOf<{ parametrosResponse: { nombre: string; valor: string } }>(res).parametrosResponse;
            // Only the operator's token changes a parameter, and only to a value the parameter accepts.
            expect(request.headers?.authorization).toBe(`Bearer ${TEST_ADMIN_TOKEN}`);
            expect(isParameterName(nombre) && parameterValueSchema(nombre).safeParse(valor).success).toBe(true);
            changedParams.set(nombre, valor);
          }
        }),
        { numRuns: RUNS * 3, endOnFailure: true, reporter: compactReporter },
      );
      inputs += runs;
      if (process.env.RELIABILITY_VERBOSE) console.log(`OUTCOMES ${e.name} ${JSON.stringify(Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1])))}`);

      // Nothing moved: money, rows (the audit trail aside, and what a well-formed call legitimately created).
      const report = await checkInvariants(t.database.db, baseline);
      violations += report.violations.length;
      expect(report.violations, e.name).toEqual([]);
      // The import may add accounts, instalments and savings; nothing has paid on them yet, so each adds its own
      // amount to the totals, and the rows that were there before add nothing.
      const now = await captureLedger(t.database.db);
      const added = (before: Map<string, number>, after: Map<string, number>) => [...after].reduce((sum, [key, value]) => sum + (before.has(key) ? 0 : value), 0);
      expect(report.totals, e.name).toEqual({
        ...baseline.totals,
        balances: baseline.totals.balances + added(baseline.accounts, now.accounts),
        pending: baseline.totals.pending + added(baseline.instalments, now.instalments),
        savings: baseline.totals.savings + added(baseline.savings, now.savings),
      });
      baseline = now;
      const countsAfter = await tableCounts(t.database.db);
      for (const [table, n] of Object.entries(countsAfter)) {
        if (table === 'audit_log') continue;
        if (e.grows?.includes(table)) expect(n, `${e.name}: rows of ${table}`).toBeGreaterThanOrEqual(countsBefore[table]!);
        else if (e.shrinks?.includes(table)) expect(n, `${e.name}: rows of ${table}`).toBeLessThanOrEqual(countsBefore[table]!);
        else expect(n, `${e.name}: rows of ${table}`).toBe(countsBefore[table]);
      }
      const paramsAfter = await parameterValues(t.database.db);
      for (const [nombre, valor] of Object.entries(paramsAfter)) {
        expect(valor, `${e.name}: parameter ${nombre}`).toBe(changedParams.has(nombre) ? changedParams.get(nombre) : paramsBefore[nombre]);
      }
      // Put back what the operator's token legitimately changed, so the next endpoint starts from the seed.
      // Through the service, which answers once every replica's cache has seen it.
      for (const [nombre, valor] of Object.entries(paramsBefore)) {
        if (paramsAfter[nombre] !== valor) await t.app.services.parameters.update(nombre, valor, 'fuzz');
      }
    }, 60_000 + RUNS * 3 * 400);
  }
});
