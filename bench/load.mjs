#!/usr/bin/env node
// The load generator of bench/run.mjs, in a process of its own: one run described by the JSON file named on the
// command line, either autocannon at its maximum (no pipelining) or, with `pacedRate`, a constant-rate open-loop run
// (decision 012); prints one JSON line with the run's figures and what the answers said.
//
// Scenarios:
//   post     one request, the same body each time (parameters; the bare node:http server)
//   listar   call 2 for a member, each request with its own captcha solved beforehand
//   payment  a member's whole own-account payment as the browser makes it: call 2 (captcha) → 3 (the oldest
//            instalment) → 4 (captcha, password) → 5 (coordinate challenge) → 6 (the three answers) → 7 (voucher).
//            A flow takes the next member in turn, so no two connections pay for the same member at once.

import autocannon from 'autocannon';
import { Pool } from 'undici';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { coordinate, quantile } from './lib.mjs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const json = { 'content-type': 'application/json' };

const state = { businessErrors: 0, sampleError: '', flows: 0, warmupFlows: 0, captchasLeft: 0 };
/** A flow completed: counted apart while a constant-rate run warms up (its CPU is measured, its latency not). */
const flowDone = (context) => (context.warmingUp ? state.warmupFlows++ : state.flows++);
/** Per call of a flow: the time from building its request to its answer (one request in flight per connection). */
const stepTimes = {};
let nextCaptcha = 0;
let nextMember = 0;
const captchas = spec.captchasFile ? JSON.parse(readFileSync(spec.captchasFile, 'utf8')) : [];
const takeCaptcha = () => {
  const captcha = captchas[nextCaptcha++];
  if (captcha === undefined) {
    state.businessErrors++;
    state.sampleError ||= 'ran out of solved captchas';
    return 'none';
  }
  return captcha;
};

/** The answer's envelope carried a business error (HTTP 200 with `error`): counted, never silent. */
function answer(body, responseName) {
  let parsed;
  try {
    parsed = JSON.parse(body)[responseName];
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.error) {
    state.businessErrors++;
    state.sampleError ||= `${responseName}: ${body.slice(0, 300)}`;
    return null;
  }
  return parsed;
}

const post = (path, build, responseName, after) => ({
  method: 'POST',
  path,
  headers: json,
  setupRequest: (request, context) => {
    // A flow that went wrong starts over with the next member (autocannon counts it in `resets`).
    if (context.failed) return null;
    const { body, headers } = build(context);
    context.sentAt = performance.now();
    return { ...request, body: JSON.stringify(body), headers: { ...json, ...headers } };
  },
  onResponse: (status, body, context) => {
    if (!context.warmingUp) (stepTimes[path] ??= []).push(performance.now() - context.sentAt);
    if (status !== 200) {
      context.failed = true;
      state.sampleError ||= `${path}: HTTP ${status} ${body.slice(0, 300)}`;
      return;
    }
    const parsed = answer(body, responseName);
    if (!parsed) context.failed = true;
    else after?.(parsed, context);
  },
});

function requestsOf(scenario) {
  if (scenario === 'post') return [{ method: 'POST', path: spec.path, headers: json, body: JSON.stringify(spec.body) }];

  const listar = post(
    '/prod/producto/listar',
    (context) => {
      const rut = spec.members[nextMember++ % spec.members.length];
      context.rut = rut;
      return {
        body: { listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } },
        headers: { authorization: takeCaptcha() },
      };
    },
    'listarDetalleProductosResponse',
    (parsed, context) => {
      context.token = parsed.token;
      const credit = parsed.listaProductos.find((p) => p.tipoFamiliaProducto === 'PC');
      const detalles = Array.isArray(credit?.listaDetalleProductos) ? credit.listaDetalleProductos : [];
      context.product = credit;
      context.oldest = detalles[0];
      if (scenario === 'listar') flowDone(context);
    },
  );
  if (scenario === 'listar') return [listar];

  const payment = [
    listar,
    post(
      '/prod/producto/seleccionar',
      ({ token, rut, product, oldest }) => ({
        body: {
          seleccionarProductoRequest: {
            userId: rut,
            canalLlamada: 'PGEX',
            token,
            rut,
            producto: [
              {
                numeroProducto: product?.numeroProducto ?? '',
                tipoFamiliaProducto: 'PC',
                nombreFamiliaProducto: product?.nombreFamiliaProducto ?? '',
                detalleProducto: [
                  { numeroCuota: String(oldest?.numeroCuota), valorAPagar: oldest?.montoPendiente ?? 0, fechaVencimiento: oldest?.fechaVencimiento ?? '' },
                ],
              },
            ],
          },
        },
      }),
      'seleccionarProductoResponse',
      (parsed, context) => (context.idTransaccion = parsed.idTransaccion),
    ),
    post(
      '/prod/pago/producto/cuentavista/autentica',
      ({ token, rut }) => {
        const [number, dv] = rut.split('-');
        return {
          body: { autenticaConsultaFactoresRequest: { userId: rut, canalLlamada: 'PGEX', token, autenticacion: { rut: number, dv, clave: '1234' } } },
          headers: { authorization: takeCaptcha() },
        };
      },
      'autenticaConsultaFactoresResponse',
      (parsed, context) => (context.numeroCuenta = parsed.numeroCuenta),
    ),
    post(
      '/prod/pago/producto/cuentavista/autorizar',
      ({ token, rut }) => ({
        body: { autorizarPagoProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token, factor: 1, rut, rutPago: rut } },
      }),
      'autorizarPagoProductoCVResponse',
      (parsed, context) => (context.cells = parsed.desafio?.item.map((i) => i.valor) ?? []),
    ),
    post(
      '/prod/pago/producto/cuentavista/pagar',
      ({ token, rut, numeroCuenta, cells }) => ({
        body: {
          pagarProductoCVRequest: {
            userId: rut,
            canalLlamada: 'PGEX',
            token,
            rutTitular: rut,
            numeroCuenta,
            rutPago: rut,
            factor: 1,
            desafio: { item: (cells ?? []).map((cell) => ({ valor: coordinate(rut, cell) })) },
          },
        },
      }),
      'pagarProductoCVResponse',
    ),
    post(
      '/prod/pago/consultar',
      ({ token, idTransaccion }) => ({
        body: { consultarPagoRequest: { userId: 'x', canalLlamada: 'PGEX', token, idTransaccion } },
      }),
      'consultarPagoResponse',
      (_parsed, context) => flowDone(context),
    ),
  ];
  return payment;
}

/** Autocannon at its maximum rate: closed loop, each connection sends again as soon as it is answered. */
async function autocannonRun() {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    pipelining: 1,
    duration: spec.duration,
    timeout: 30,
    requests: requestsOf(spec.scenario),
  });
  return {
    requests: result.requests.total,
    duration: result.duration,
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.average },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    resets: result.resets ?? 0,
  };
}

/**
 * The same request, over and over, on `connections` keep-alive sockets: for the constant-rate run of one cheap call.
 * A general client (undici: ~0.15 ms of CPU per request here, three times autocannon's) would take a core's third
 * from the server it shares two cores with, and measure itself; this one writes prepared bytes and reads each
 * answer's status line and Content-Length, no more. Only for answers with a Content-Length (Fastify's for a JSON body).
 */
function fixedRequestSender(url, connections, { method, path, headers, body }) {
  const { hostname, port } = new URL(url);
  const head = Object.entries({ host: `${hostname}:${port}`, ...headers, 'content-length': Buffer.byteLength(body) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const bytes = Buffer.from(`${method} ${path} HTTP/1.1\r\n${head}\r\n${body}`);
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
        // A socket closed while idle fails its next job instead of leaving it unanswered; it is not taken again.
        if (socket.destroyed) return next.reject(new Error('connection closed'));
        job = next;
        socket.write(bytes);
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
    send: () => new Promise((resolve, reject) => {
      queue.push({ resolve, reject });
      pump();
    }),
    close: () => Promise.resolve(),
  };
}

/** Any request of a flow, through undici's pool. */
function poolSender(url, connections) {
  const pool = new Pool(url, { connections, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  return {
    send: async (request) => {
      const answer = await pool.request({ path: request.path, method: request.method, headers: request.headers, body: request.body });
      return { status: answer.statusCode, body: await answer.body.text() };
    },
    close: () => pool.close(),
  };
}

/**
 * Open-loop load at a constant rate (`pacedRate` flows per second, a flow being one request or one whole payment):
 * flow i is due at i / rate seconds, whether or not earlier ones have been answered, and waits for one of the
 * `connections` keep-alive connections like any client would. Every request's latency counts from when it was due
 * (its flow's start, or its predecessor's answer), so time spent queued behind a slow answer is not hidden
 * (coordinated omission). autocannon cannot do this: its rate limit lets each connection send its quota back to
 * back at the start of every second, so "70% of the maximum" is the maximum for 0.7 s, then silence.
 * The first `pacedWarmup` seconds run at the same rate and are not recorded (a new process's JIT and connections).
 * How late the generator itself started flows is reported: a late start is counted in the latency, and a generator
 * that falls behind measures itself, not the server.
 */
async function pacedRun() {
  const steps = requestsOf(spec.scenario);
  const client = spec.scenario === 'post' ? fixedRequestSender(spec.url, spec.connections, steps[0]) : poolSender(spec.url, spec.connections);
  const latencies = [];
  const lateStarts = [];
  const counts = { requests: 0, warmupRequests: 0, non2xx: 0, errors: 0, resets: 0 };

  async function flow(due, warmingUp) {
    const context = { warmingUp };
    let readyAt = due;
    for (const step of steps) {
      const request = step.setupRequest ? step.setupRequest({ ...step }, context) : step;
      if (!request) return void counts.resets++;
      context.sentAt = readyAt;
      let status;
      let body;
      try {
        ({ status, body } = await client.send(request));
      } catch (error) {
        counts.errors++;
        state.sampleError ||= `${request.path}: ${error.message}`;
        return;
      }
      const answeredAt = performance.now();
      if (status < 200 || status > 299) counts.non2xx++;
      if (warmingUp) counts.warmupRequests++;
      else {
        latencies.push(answeredAt - readyAt);
        timeline?.push([readyAt - start, answeredAt - readyAt]);
        counts.requests++;
      }
      step.onResponse?.(status, body, context);
      if (context.failed) return void counts.resets++;
      readyAt = answeredAt;
    }
  }

  const interval = 1000 / spec.pacedRate;
  const warmup = Math.floor(spec.pacedRate * (spec.pacedWarmup ?? 0));
  const total = warmup + Math.floor(spec.pacedRate * spec.duration);
  const inFlight = [];
  const start = performance.now() + 20;
  // Each recorded request's due time (ms from the start) and latency, for a look at when a run's slow answers came.
  const timeline = spec.timelineFile ? [] : undefined;
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
  await client.close();
  if (timeline) writeFileSync(spec.timelineFile, JSON.stringify({ startedAt: performance.timeOrigin + start, timeline }));
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q) => quantile(sorted, q);
  const lateStartsSorted = lateStarts.sort((a, b) => a - b);
  return {
    requests: counts.requests,
    warmupRequests: counts.warmupRequests,
    duration: spec.duration,
    latency: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1), mean: Math.round((sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)) * 100) / 100 },
    non2xx: counts.non2xx,
    errors: counts.errors,
    timeouts: 0,
    resets: counts.resets,
    lateStartMs: { p99: quantile(lateStartsSorted, 0.99), max: quantile(lateStartsSorted, 1) },
  };
}

const started = Date.now();
const result = spec.pacedRate ? await pacedRun() : await autocannonRun();
const seconds = (Date.now() - started) / 1000;
state.captchasLeft = Math.max(0, captchas.length - nextCaptcha);
process.stdout.write(
  `${JSON.stringify({
    ...result,
    requestsPerSecond: result.requests / result.duration,
    flowsPerSecond: state.flows / result.duration,
    wallSeconds: seconds,
    steps: Object.fromEntries(
      Object.entries(stepTimes).map(([path, times]) => {
        const sorted = times.sort((a, b) => a - b);
        return [path, { count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) }];
      }),
    ),
    ...state,
  })}\n`,
);
