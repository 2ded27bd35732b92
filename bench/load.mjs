#!/usr/bin/env node
// The load generator of bench/run.mjs, in a process of its own so that its CPU is measured apart from the API's. It
// runs the one run described by the JSON file named on the command line and prints one JSON line of figures.
//
// Scenarios:
//   parametros  call 1, the same body each time
//   listar      call 2 for the next member, each request with its own captcha solved beforehand
//   payment     an own-account payment: call 3 (the member's oldest instalment) → 4 (captcha, password) → 5 → 6 → 7
//   card        a card payment: call 3 → 9 → 10 → the Webpay simulator's form (an approved card) → the return → 7
// A payment's session (call 2) is opened by bench/run.mjs before the run, one per member: listings are a flow of
// their own.
// A flow holds its member until it ends, so no two flows pay for the same member at once.
//
// Without `pacedRate` the run measures capacity (closed loop: each connection starts its next flow when its last one
// ends); with it, flows start at that constant rate whether earlier ones were answered or not (decision 012).

import autocannon from 'autocannon';
import { Pool } from 'undici';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { coordinate, quantile } from './lib.mjs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const PC_COMMERCE_CODE = '597055555536'; // pagoWPDebitoCredito of the demo seed, which pagoDebitoCreditoPC selects
const APPROVED_CARD = { card: '4051885600446623', expiry: '12/29', cvv: '123' };

const state = { businessErrors: 0, sampleError: '', flows: 0, warmupFlows: 0, captchasLeft: 0 };
/** Per call: the time from sending its request to its answer. */
const stepTimes = {};
const captchas = spec.captchasFile ? JSON.parse(readFileSync(spec.captchasFile, 'utf8')) : [];
let nextCaptcha = 0;
let nextMember = 0;

function fail(context, message) {
  state.businessErrors++;
  state.sampleError ||= message;
  if (context) context.failed = true;
}

/** A flow answered in full: counted apart while a constant-rate run warms up. */
const flowDone = (context) => (context.warmingUp ? state.warmupFlows++ : state.flows++);

const takeCaptcha = () => captchas[nextCaptcha++] ?? (fail(null, 'ran out of solved captchas'), 'none');

/** The body's envelope under `responseName`, or null (counted) when it is missing or carries a business error. */
function envelope(body, responseName, context) {
  let parsed;
  try {
    parsed = JSON.parse(body)[responseName];
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.error) return fail(context, `${responseName}: ${body.slice(0, 300)}`), null;
  return parsed;
}

/**
 * One request of a flow, in the shape autocannon takes: `build(context)` gives its body and headers (or null to end
 * the flow), `check(status, body, context)` reads the answer. `host: 'sim'` sends it to the Webpay simulator.
 */
const step = ({ path, host = 'api', expect = 200, build, check }) => ({
  method: 'POST',
  path,
  host,
  expect,
  setupRequest: (request, context) => {
    if (context.failed) return null;
    const built = build(context);
    if (!built) return null;
    context.sentAt = performance.now();
    return { ...request, body: built.body, headers: built.headers };
  },
  onResponse: (status, body, context) => {
    if (!context.warmingUp) (stepTimes[path] ??= []).push(performance.now() - context.sentAt);
    if (status !== expect) {
      context.failed = true;
      state.sampleError ||= `${path}: HTTP ${status} ${body.slice(0, 300)}`;
      return;
    }
    check?.(status, body, context);
  },
});

/** A call of the API with a JSON body keyed by its request name, answered under its response name. */
const call = (path, responseName, build, after) =>
  step({
    path,
    build: (context) => {
      const built = build(context);
      return built && { body: JSON.stringify(built.body), headers: { ...json, ...built.headers } };
    },
    check: (_status, body, context) => {
      const parsed = envelope(body, responseName, context);
      if (parsed) after?.(parsed, context);
    },
  });

// --- Members with a session, for the payments ---------------------------------------------------------------------

/** Free members, each `{ rut, token, product, pending }` with its pending instalments oldest first (lib.mjs, openSessions). */
const freeMembers = [...(spec.sessions ?? [])];

function takeMember(context) {
  const member = freeMembers.shift();
  if (!member) {
    context.noMember = true;
    return fail(context, 'no member left with a session and an instalment to pay'), null;
  }
  context.member = member;
  return member;
}

/** A flow that went wrong leaves its member out: its instalment may be held by a pending transaction. */
function releaseMember(context) {
  const member = context.member;
  if (!member || context.failed) return;
  member.pending.shift();
  if (member.pending.length) freeMembers.push(member);
}

const listarBody = (rut) => ({ listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } });

const seleccionar = call(
  '/prod/producto/seleccionar',
  'seleccionarProductoResponse',
  (context) => {
    const member = takeMember(context);
    if (!member) return null;
    const { rut, token, product, pending } = member;
    const oldest = pending[0];
    context.amount = oldest.montoPendiente;
    const detalleProducto = [{ numeroCuota: String(oldest.numeroCuota), valorAPagar: oldest.montoPendiente, fechaVencimiento: oldest.fechaVencimiento }];
    const producto = [{ numeroProducto: product.numeroProducto, tipoFamiliaProducto: 'PC', nombreFamiliaProducto: product.nombreFamiliaProducto, detalleProducto }];
    return { body: { seleccionarProductoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, producto } } };
  },
  (parsed, context) => (context.idTransaccion = parsed.idTransaccion),
);

const consultar = call(
  '/prod/pago/consultar',
  'consultarPagoResponse',
  ({ member, idTransaccion }) => ({ body: { consultarPagoRequest: { userId: member.rut, canalLlamada: 'PGEX', token: member.token, idTransaccion } } }),
  (_parsed, context) => flowDone(context),
);

const ownAccount = [
  seleccionar,
  call(
    '/prod/pago/producto/cuentavista/autentica',
    'autenticaConsultaFactoresResponse',
    ({ member: { rut, token } }) => {
      const [number, dv] = rut.split('-');
      return {
        body: { autenticaConsultaFactoresRequest: { userId: rut, canalLlamada: 'PGEX', token, autenticacion: { rut: number, dv, clave: '1234' } } },
        headers: { authorization: takeCaptcha() },
      };
    },
    (parsed, context) => (context.numeroCuenta = parsed.numeroCuenta),
  ),
  call(
    '/prod/pago/producto/cuentavista/autorizar',
    'autorizarPagoProductoCVResponse',
    ({ member: { rut, token } }) => ({ body: { autorizarPagoProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token, factor: 1, rut, rutPago: rut } } }),
    (parsed, context) => (context.cells = parsed.desafio?.item.map((i) => i.valor) ?? []),
  ),
  call('/prod/pago/producto/cuentavista/pagar', 'pagarProductoCVResponse', ({ member: { rut, token }, numeroCuenta, cells }) => ({
    body: {
      pagarProductoCVRequest: {
        userId: rut,
        canalLlamada: 'PGEX',
        token,
        rutTitular: rut,
        numeroCuenta,
        rutPago: rut,
        factor: 1,
        desafio: { item: cells.map((cell) => ({ valor: coordinate(rut, cell) })) },
      },
    },
  })),
  consultar,
];

/** The hidden fields of the simulator's auto-posted return form. */
const returnFields = (html) => Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));

const card = [
  seleccionar,
  step({
    path: '/api/pagoexpress/auth',
    build: ({ member, idTransaccion }) => ({ body: JSON.stringify({ idTransaction: idTransaccion }), headers: { ...json, authorization: `Bearer ${member.token}` } }),
    check: (_status, body, context) => {
      const parsed = JSON.parse(body);
      if (parsed.code !== 0 || !parsed.token) return fail(context, `auth: ${body.slice(0, 300)}`);
      context.hostToken = parsed.token;
    },
  }),
  step({
    path: '/api/pagoexpress/initMall',
    build: ({ member, idTransaccion, hostToken, amount }) => ({
      body: JSON.stringify({
        sessionId: `${member.token}${member.rut}`,
        transactionId: idTransaccion,
        storesTransaction: [{ amount, commerceCode: PC_COMMERCE_CODE, transactionId: member.product.numeroProducto }],
      }),
      headers: { ...json, authorization: `Bearer ${hostToken}` },
    }),
    check: (_status, body, context) => {
      const parsed = JSON.parse(body);
      if (!parsed.token) return fail(context, `initMall: ${body.slice(0, 300)}`);
      context.webpayToken = parsed.token;
    },
  }),
  step({
    path: '/webpayserver/initTransaction',
    host: 'sim',
    build: ({ webpayToken }) => ({ body: new URLSearchParams({ token_ws: webpayToken }).toString(), headers: form }),
  }),
  step({
    path: '/webpayserver/pay',
    host: 'sim',
    build: ({ webpayToken }) => ({ body: new URLSearchParams({ token: webpayToken, ...APPROVED_CARD }).toString(), headers: form }),
    check: (_status, body, context) => (context.returnFields = returnFields(body)),
  }),
  step({
    path: '/api/pagoexpress/webpay/return',
    expect: 303,
    build: ({ returnFields: fields }) => ({ body: new URLSearchParams(fields).toString(), headers: form }),
    check: (_status, _body, context) => {
      if (!/[?&]estado=aprobado\b/.test(context.location ?? '')) fail(context, `return: redirected to ${context.location}`);
    },
  }),
  consultar,
];

function stepsOf(scenario) {
  if (scenario === 'parametros') return [{ method: 'POST', path: spec.path, headers: json, body: JSON.stringify(spec.body), host: 'api', expect: 200 }];
  if (scenario === 'listar') {
    const listar = call(
      '/prod/producto/listar',
      'listarDetalleProductosResponse',
      () => {
        const rut = spec.members[nextMember++ % spec.members.length];
        return { body: listarBody(rut), headers: { authorization: takeCaptcha() } };
      },
      (_parsed, context) => flowDone(context),
    );
    return [listar];
  }
  return scenario === 'card' ? card : ownAccount;
}

// --- Senders ----------------------------------------------------------------------------------------------------

/**
 * Requests on `connections` keep-alive sockets, for the constant-rate runs of calls 1 and 2: a general client
 * (undici) costs the generator about what the server spends on these calls, on the cores they share, and the
 * generator's share would then decide the p99. Reads only each answer's status line and Content-Length (Fastify
 * sends one with every JSON body).
 */
function rawSender(url, connections) {
  const { hostname, port } = new URL(url);
  const bytesOf = ({ method, path, headers, body }) => {
    const head = Object.entries({ host: `${hostname}:${port}`, ...headers, 'content-length': Buffer.byteLength(body) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    return Buffer.from(`${method} ${path} HTTP/1.1\r\n${head}\r\n${body}`);
  };
  const queue = [];
  const idle = [];
  const pump = () => {
    while (queue.length && idle.length) idle.pop().send(queue.shift());
  };
  for (let i = 0; i < connections; i++) {
    const socket = connect(Number(port), hostname);
    socket.setNoDelay(true);
    let buffered = Buffer.alloc(0);
    let job = null;
    const connection = {
      send(next) {
        if (socket.destroyed) return next.reject(new Error('connection closed'));
        job = next;
        socket.write(bytesOf(next.request));
      },
    };
    socket.on('connect', () => {
      idle.push(connection);
      pump();
    });
    socket.on('error', (error) => job?.reject(error));
    socket.on('close', () => job?.reject(new Error('connection closed')));
    socket.on('data', (chunk) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const statusAndHeaders = buffered.toString('latin1', 0, end);
      const length = /\r\ncontent-length: *(\d+)/i.exec(statusAndHeaders);
      if (!length) return void socket.destroy(new Error('an answer without Content-Length'));
      const size = end + 4 + Number(length[1]);
      if (buffered.length < size) return;
      const finished = job;
      job = null;
      finished.resolve({ status: Number(statusAndHeaders.slice(9, 12)), body: buffered.toString('utf8', end + 4, size) });
      buffered = buffered.subarray(size);
      idle.push(connection);
      pump();
    });
  }
  return {
    send: (request) =>
      new Promise((resolve, reject) => {
        queue.push({ request, resolve, reject });
        pump();
      }),
    close: () => Promise.resolve(),
  };
}

function poolSender(url, connections) {
  const pool = new Pool(url, { connections, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  return {
    send: async (request) => {
      const answer = await pool.request({ path: request.path, method: request.method, headers: request.headers, body: request.body });
      return { status: answer.statusCode, body: await answer.body.text(), location: answer.headers.location };
    },
    close: () => pool.close(),
  };
}

// --- Runs -------------------------------------------------------------------------------------------------------

/** Autocannon for the capacity of calls 1 and 2: it costs the generator less than undici at thousands a second. */
async function autocannonRun(steps) {
  const result = await autocannon({ url: spec.url, connections: spec.connections, pipelining: 1, duration: spec.duration, timeout: 30, requests: steps });
  return {
    requests: result.requests.total,
    duration: result.duration,
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    flows: spec.scenario === 'parametros' ? result.requests.total : state.flows,
  };
}

/**
 * The payments' runs, and the constant-rate runs of every flow. Each request's latency counts from when it was due:
 * its flow's start, or its predecessor's answer, so that time queued behind a slow answer is not hidden (coordinated
 * omission). The simulator's form is the provider's time and stays out of the latencies (its step time is kept).
 */
async function flowRun(steps) {
  const api = spec.pacedRate && (spec.scenario === 'parametros' || spec.scenario === 'listar') ? rawSender(spec.url, spec.connections) : poolSender(spec.url, spec.connections);
  const sim = spec.simUrl ? poolSender(spec.simUrl, spec.connections) : undefined;
  const latencies = [];
  const lateStarts = [];
  const counts = { requests: 0, non2xx: 0, errors: 0 };

  async function flow(due, warmingUp) {
    const context = { warmingUp };
    let readyAt = due;
    try {
      for (const each of steps) {
        const request = each.setupRequest ? each.setupRequest({ ...each }, context) : each;
        if (!request) return;
        let answer;
        try {
          answer = await (each.host === 'sim' ? sim : api).send(request);
        } catch (error) {
          counts.errors++;
          state.sampleError ||= `${request.path}: ${error.message}`;
          context.failed = true;
          return;
        }
        const answeredAt = performance.now();
        if (answer.status !== each.expect) counts.non2xx++;
        if (!warmingUp && each.host !== 'sim') {
          latencies.push(answeredAt - readyAt);
          counts.requests++;
        }
        context.location = answer.location;
        each.onResponse?.(answer.status, answer.body, context);
        if (context.failed) return;
        readyAt = answeredAt;
      }
      if (spec.scenario === 'parametros') flowDone(context);
    } finally {
      releaseMember(context);
    }
    return context;
  }

  const started = performance.now();
  if (spec.pacedRate) {
    const interval = 1000 / spec.pacedRate;
    const warmup = Math.floor(spec.pacedRate * (spec.pacedWarmup ?? 0));
    const total = warmup + Math.floor(spec.pacedRate * spec.duration);
    const inFlight = [];
    const start = performance.now() + 20;
    let next = 0;
    await new Promise((resolve) => {
      const tick = () => {
        const now = performance.now();
        while (next < total && start + next * interval <= now) {
          const due = start + next * interval;
          if (next >= warmup) lateStarts.push(now - due);
          inFlight.push(flow(due, next < warmup));
          next++;
        }
        if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
        else resolve();
      };
      setTimeout(tick, 20);
    });
    await Promise.all(inFlight);
  } else {
    const end = started + spec.duration * 1000;
    const loop = async () => {
      while (performance.now() < end && !(await flow(performance.now(), false)).noMember);
    };
    await Promise.all(Array.from({ length: spec.connections }, loop));
  }
  await Promise.all([api.close(), sim?.close()]);
  const sorted = latencies.sort((a, b) => a - b);
  const late = lateStarts.sort((a, b) => a - b);
  return {
    requests: counts.requests,
    // A closed-loop run lasts until its last flow ends; a paced run is judged over its recorded part.
    duration: spec.pacedRate ? spec.duration : (performance.now() - started) / 1000,
    latency: { p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99), max: quantile(sorted, 1) },
    non2xx: counts.non2xx,
    errors: counts.errors,
    flows: state.flows,
    ...(spec.pacedRate ? { lateStartMs: { p99: quantile(late, 0.99), max: quantile(late, 1) } } : {}),
  };
}

const steps = stepsOf(spec.scenario);
const closedLoopByAutocannon = !spec.pacedRate && (spec.scenario === 'parametros' || spec.scenario === 'listar');
const result = closedLoopByAutocannon ? await autocannonRun(steps) : await flowRun(steps);
state.captchasLeft = Math.max(0, captchas.length - nextCaptcha);
process.stdout.write(
  `${JSON.stringify({
    ...state,
    ...result,
    requestsPerSecond: result.requests / result.duration,
    flowsPerSecond: result.flows / result.duration,
    steps: Object.fromEntries(
      Object.entries(stepTimes).map(([path, times]) => {
        const sorted = times.sort((a, b) => a - b);
        return [path, { count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) }];
      }),
    ),
  })}\n`,
);
