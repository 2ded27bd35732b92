#!/usr/bin/env node
// `npm run bench`: the API's throughput and latency on PostgreSQL, each figure beside its bare limit, measured in the
// same run (docs/PERFORMANCE.md explains the figures and the targets).
//
//   POST /prod/parametro/consultar   vs a plain node:http server answering the same prepared JSON   target ≥ 50%
//   POST /prod/producto/listar       vs pgbench running the same SQL statements                      target ≥ 50%
//   the whole own-account payment    vs pgbench running the same SQL, transaction by transaction     target ≥ 40%
//   p99 latency < 50 ms at 70% of each maximum rate (a second run at a constant rate, open loop); no non-2xx answer and
//   no business error in any run.
//
// Each flow is measured in BENCH_ROUNDS rounds (default 3) of the API's maximum, its constant-rate run at 70% of that
// maximum, and the bare limit, the limit first in every other round; the verdicts go by the median of the rounds'
// ratios and p99s (decision 013).
//
// Processes: the API (the production build, apps/api/dist/server.js), the bare server and the load generator
// (bench/load.mjs: autocannon, no pipelining, for the maximum rates; its own open-loop sender at a constant rate for
// the 70% runs, decision 012) each run in a process of their own; this script only starts them and waits. PostgreSQL
// is the server of BENCH_DATABASE_URL (a database of the benchmark's own is created and dropped).
//
// Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_DURATION (s, default 10),
// BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (default 3), BENCH_ONLY (some of
// parametros,listar,payment), PERF_API_SERVER (default apps/api/dist/server.js), BENCH_API_NODE_ARGS (Node options for
// the API process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for a V8 CPU profile of it).

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  apiEnvironment,
  BENCH_FIRST_RUT,
  cpuSampler,
  createDatabase,
  freePort,
  PARAMETROS_BODY,
  quantile,
  ROOT,
  seedBenchMembers,
  sleep,
  solveCaptchas,
  startProcess,
  waitHealthy,
} from './lib.mjs';

/** The servers' process ids by port and the benchmark database's name, for the CPU accounting of every run. */
const measured = { servers: {}, database: '' };

/** Runs a command to its end with the CPU of `groups` (plus the command itself, as `self`) accounted meanwhile. */
function runMeasured(command, args, groups, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = cpuSampler({ ...groups, self: child.pid ?? -1 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const cpu = sampler.stop();
      if (code === 0) resolve({ stdout, stderr, cpu });
      else reject(new Error(`${command} exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
}

/** CPU milliseconds per unit of work (request, payment, pgbench transaction). */
const perUnit = (seconds, units) => Math.round((seconds * 1000 * 100) / Math.max(1, units)) / 100;

const BASE_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 3)));
/** The unrecorded start of each constant-rate run, at its own rate (bench/load.mjs); autocannon's runs ignore it. */
const PACED_WARMUP = 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'parametros,listar,payment').split(','));
// 500 members × 48 instalments: enough payments for every run of the API and of pgbench.
const MEMBERS = 500;
const INSTALMENTS = 48;
const TARGETS = { parametros: 0.5, listar: 0.5, payment: 0.4, p99Ms: 50, loadFraction: 0.7 };
const OUT = join(ROOT, '.e2e-artifacts', 'bench');
const API_SERVER = process.env.PERF_API_SERVER ?? join(ROOT, 'apps/api/dist/server.js');

if (!existsSync(API_SERVER)) {
  console.error('bench: apps/api/dist/server.js is missing; run `npm run build` first.');
  process.exit(2);
}
mkdirSync(OUT, { recursive: true });

/** The middle value, or the mean of the two middle ones for an even count. */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * The rounds of one flow: in each, the API's maximum with its constant-rate run (`runApi`, which returns
 * `{ api, steady, apiRate }`) and the bare limit (`runLimit`, which returns `{ limit, limitRate }`), the limit first in
 * every other round, so that a machine whose speed drifts over minutes weighs on both sides alike. Each round's ratio
 * pairs runs a minute apart at most; the verdicts take the medians (decision 013).
 */
async function measureRounds(runApi, runLimit) {
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`  round ${round} of ${ROUNDS}`);
    const limitFirst = round % 2 === 0;
    const limit = limitFirst ? await runLimit(round) : undefined;
    const api = await runApi(round);
    rounds.push({ ...api, ...(limitFirst ? limit : await runLimit(round)) });
  }
  const ratios = rounds.map((r) => r.apiRate / r.limitRate);
  const p99s = rounds.map((r) => r.steady.latency.p99);
  return { rounds, ratio: median(ratios), ratios, p99: Math.round(median(p99s) * 10) / 10, p99s };
}

/** Per flow, the highest maximum of its rounds so far, in the unit its captchas are counted in. */
const fastestMaximum = new Map();

/**
 * The API's side of one round: its maximum, then its constant-rate run at 70% of that maximum. `rateOf` reads a run's
 * rate (requests or payments a second); `captchas`, for the flows that spend them, solves `count` flows' worth into a
 * file (`solve(file name, count)`) and says how many a maximum run needs (`forMaximum`).
 */
async function apiMaximumAnd70(name, round, spec, rateOf, captchas) {
  const solved = async (run, count) => (captchas ? { captchasFile: await captchas.solve(`${name}-${run}`, count) } : {});
  // The warm-up's estimate, or 1.5 times the fastest earlier round's: a round that ran out of captchas would count
  // business errors (the machine may speed up between rounds).
  const forMaximum = Math.max(captchas?.forMaximum ?? 0, (fastestMaximum.get(name) ?? 0) * 1.5 * DURATION);
  const api = await load(`${name}-api-max-${round}`, { ...spec, ...(await solved('max', forMaximum)) });
  fastestMaximum.set(name, Math.max(fastestMaximum.get(name) ?? 0, rateOf(api)));
  const rate = rateOf(api) * TARGETS.loadFraction;
  const steady = await load(`${name}-api-70%-${round}`, { ...spec, pacedRate: rate, ...(await solved('70', rate * (DURATION + PACED_WARMUP) * 1.1 + 100)) });
  return { api, steady, apiRate: rateOf(api) };
}

/** A sync of the storage probe that took this long or longer is a stall of the disk. */
const STALL_MS = 50;

/**
 * The storage probe (bench/storage-probe.mjs) beside one run: how long an fdatasync took meanwhile (p50, p99, maximum,
 * and each stall as [ms since the probe started, ms it took]), on the file system of the benchmark's artifacts
 * (`main` says whether that is PostgreSQL's).
 */
async function withStorageProbe(run) {
  const child = spawn(process.execPath, [join(ROOT, 'bench/storage-probe.mjs'), join(OUT, 'storage-probe.tmp')], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const closed = new Promise((resolve) => child.once('close', () => resolve(stdout.trim() ? JSON.parse(stdout.trim()) : null)));
  let ran;
  try {
    ran = await run();
  } finally {
    child.kill('SIGTERM');
  }
  const syncs = await closed;
  if (!syncs?.length) return { ...ran, storage: null };
  const sorted = syncs.map(([, took]) => took).sort((a, b) => a - b);
  const stalls = syncs.filter(([, took]) => took >= STALL_MS).map(([at, took]) => [at, Math.round(took)]);
  return { ...ran, storage: { syncs: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: quantile(sorted, 1), stalls } };
}

/** Whether the probe's disk is PostgreSQL's: its data directory's file system, when this host can see it. */
async function probeDiskIsDatabases(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select current_setting('data_directory') as dir");
    return statSync(rows[0].dir).dev === statSync(OUT).dev ? 'the same file system as PostgreSQL’s data directory' : 'not the file system of PostgreSQL’s data directory';
  } catch {
    return 'PostgreSQL’s data directory is not visible from here';
  } finally {
    await client.end();
  }
}

function printMeanwhile(storage, steal) {
  console.log(`  ${''.padEnd(28)} hypervisor meanwhile: ${steal.share}% of the cores' time (steal), at most ${steal.maxSecond}% in a second`);
  if (!storage) return;
  const stalled = storage.stalls.reduce((sum, [, took]) => sum + took, 0);
  const stalls = storage.stalls.length ? `; ${storage.stalls.length} over ${STALL_MS} ms, ${stalled} ms in all` : '';
  console.log(`  ${''.padEnd(28)} disk meanwhile: fdatasync p50 ${storage.p50} ms, p99 ${storage.p99} ms, max ${storage.max} ms${stalls}`);
}

/** One run (autocannon, or constant-rate with `pacedRate`) in the load generator's own process, with the CPU each side used. */
async function load(name, spec) {
  const file = join(OUT, `${name}.spec.json`);
  const timelineFile = spec.pacedRate ? join(OUT, `${name}.timeline.json`) : undefined;
  writeFileSync(file, JSON.stringify({ connections: CONNECTIONS, duration: DURATION, pacedWarmup: PACED_WARMUP, ...spec, timelineFile }));
  const groups = { api: measured.servers[new URL(spec.url).port] ?? -1, postgres: measured.database };
  const { stdout, cpu, storage } = await withStorageProbe(() => runMeasured(process.execPath, [join(ROOT, 'bench/load.mjs'), file], groups));
  // Spent captchas are of no further use (and can weigh megabytes).
  if (spec.captchasFile) rmSync(spec.captchasFile, { force: true });
  const result = JSON.parse(stdout.trim().split('\n').pop());
  // The CPU was measured over the whole run, a constant-rate run's warm-up included.
  const units = spec.scenario === 'payment' ? result.flows + result.warmupFlows : result.requests + (result.warmupRequests ?? 0);
  result.cpuMsPerUnit = { server: perUnit(cpu.api ?? 0, units), postgres: perUnit(cpu.postgres ?? 0, units), generator: perUnit(cpu.self, units) };
  result.storage = storage;
  result.steal = cpu.steal;
  const rate = spec.scenario === 'payment' ? `${result.flowsPerSecond.toFixed(1)} flows/s (${result.requestsPerSecond.toFixed(0)} req/s)` : `${result.requestsPerSecond.toFixed(0)} req/s`;
  console.log(
    `  ${name.padEnd(28)} ${rate.padEnd(30)} p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors + result.timeouts}  business errors ${result.businessErrors}${result.sampleError ? `  (${result.sampleError.slice(0, 160)})` : ''}`,
  );
  {
    const c = result.cpuMsPerUnit;
    const lag = result.lateStartMs ? `; constant rate, flows started late by p99 ${result.lateStartMs.p99} ms, at most ${result.lateStartMs.max} ms` : '';
    console.log(`  ${''.padEnd(28)} CPU ms per ${spec.scenario === 'payment' ? 'payment' : 'request'}: server ${c.server}, PostgreSQL ${c.postgres}, load generator ${c.generator}${lag}`);
  }
  if (spec.scenario === 'payment' && result.steps) {
    const steps = Object.entries(result.steps).map(([path, t]) => `${path.split('/').pop()} ${t.p50}/${t.p99}`);
    console.log(`  ${''.padEnd(28)} per call, p50/p99 ms: ${steps.join(', ')}`);
  }
  printMeanwhile(storage, cpu.steal);
  return result;
}

/**
 * pgbench with `clients` connections (the API's pool size) and one thread, with the API driver's protocol. Both flows
 * run `prepared`: the API sends every statement of the listing, and every statement of the payment but its BEGINs
 * and COMMITs, as named prepared statements, each parsed once per pooled connection.
 */
async function pgbench(name, script, url, defines, protocol) {
  const u = new URL(url);
  const args = [
    '-n',
    '-M',
    protocol,
    '-c',
    String(CONNECTIONS),
    '-j',
    '1',
    '-T',
    String(DURATION),
    '-h',
    u.searchParams.get('host') ?? u.hostname,
    '-p',
    u.port || '5432',
    '-U',
    decodeURIComponent(u.username || 'postgres'),
    '-f',
    join(ROOT, 'bench/pgbench', script),
    ...Object.entries(defines).flatMap(([key, value]) => ['-D', `${key}=${value}`]),
    u.pathname.slice(1),
  ];
  const { stdout, stderr, cpu, storage } = await withStorageProbe(() =>
    runMeasured('pgbench', args, { postgres: measured.database }, { ...process.env, PGPASSWORD: decodeURIComponent(u.password) }),
  );
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? NaN);
  if (!Number.isFinite(tps) || failed > 0 || /aborted|error/i.test(stderr)) {
    throw new Error(`pgbench ${script} failed:\n${stdout}\n${stderr}`);
  }
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? 0);
  const cpuMsPerUnit = { postgres: perUnit(cpu.postgres, transactions), generator: perUnit(cpu.self, transactions) };
  console.log(`  ${name.padEnd(28)} ${`${tps.toFixed(1)} tps`.padEnd(30)} latency avg ${latency} ms`);
  console.log(`  ${''.padEnd(28)} CPU ms per transaction: PostgreSQL ${cpuMsPerUnit.postgres}, pgbench ${cpuMsPerUnit.generator}`);
  printMeanwhile(storage, cpu.steal);
  return { tps, latencyAverage: latency, transactions, cpuMsPerUnit, storage, steal: cpu.steal };
}

async function main() {
  console.log(`bench: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`bench: ${CONNECTIONS} connections, no pipelining, ${WARMUP} s warm-up, ${DURATION} s per run`);
  const database = await createDatabase(BASE_DATABASE_URL);
  console.log(`bench: disk probe (an 8 KiB write and fdatasync every 20 ms beside each run) in ${OUT}: ${await probeDiskIsDatabases(database.url)}\n`);
  const processes = [];
  const results = {};
  try {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const logFd = openSync(join(OUT, 'api.log'), 'w');
    const api = startProcess(
      [...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean), API_SERVER],
      // Request logs at info, written to a file, as deployed.
      apiEnvironment({ port, databaseUrl: database.url, logLevel: 'info' }),
      { stdio: logFd },
    );
    processes.push(api);
    measured.database = database.name;
    measured.servers[port] = api.child.pid;
    await waitHealthy(baseUrl, api, 'API', '/ready');
    closeSync(logFd);

    const members = await seedBenchMembers(database.url, MEMBERS, INSTALMENTS);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(readFileSync(join(ROOT, 'bench/pgbench/setup.sql'), 'utf8'));
    await client.end();

    // --- Call 1, parameters -------------------------------------------------------------------------------------
    if (ONLY.has('parametros')) {
      console.log('POST /prod/parametro/consultar');
      const answer = await fetch(`${baseUrl}/prod/parametro/consultar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(PARAMETROS_BODY),
      });
      const bodyFile = join(OUT, 'parametros-answer.json');
      writeFileSync(bodyFile, await answer.text());
      const barePort = await freePort();
      const bare = startProcess([join(ROOT, 'bench/bare-server.mjs')], { PORT: String(barePort), BARE_BODY_FILE: bodyFile });
      processes.push(bare);
      measured.servers[barePort] = bare.child.pid;
      await waitHealthy(`http://127.0.0.1:${barePort}`, bare, 'bare server');
      const post = { scenario: 'post', path: '/prod/parametro/consultar', body: PARAMETROS_BODY };
      const bareUrl = `http://127.0.0.1:${barePort}`;
      await load('parametros-warmup', { ...post, url: baseUrl, duration: WARMUP });
      await load('parametros-bare-warmup', { ...post, url: bareUrl, duration: WARMUP });
      results.parametros = await measureRounds(
        (round) => apiMaximumAnd70('parametros', round, { ...post, url: baseUrl }, (run) => run.requestsPerSecond),
        async (round) => {
          const limit = await load(`parametros-bare-max-${round}`, { ...post, url: bareUrl });
          return { limit, limitRate: limit.requestsPerSecond };
        },
      );
      await bare.stop();
      console.log('');
    }

    // --- Call 2, product list -----------------------------------------------------------------------------------
    if (ONLY.has('listar')) {
      console.log('POST /prod/producto/listar');
      const captchas = async (name, count) => {
        const file = join(OUT, `${name}.captchas.json`);
        writeFileSync(file, JSON.stringify(await solveCaptchas(baseUrl, Math.ceil(count))));
        return file;
      };
      const listar = { scenario: 'listar', url: baseUrl, members };
      const warm = await load('listar-warmup', { ...listar, duration: WARMUP, captchasFile: await captchas('listar-warmup', 3000) });
      // Enough captchas for 2.5× the warm-up's rate (a warm process is faster), and never fewer than 3000.
      const estimate = Math.max(3000, warm.requestsPerSecond * 2.5 * DURATION);
      results.listar = await measureRounds(
        (round) => apiMaximumAnd70('listar', round, listar, (run) => run.requestsPerSecond, { solve: captchas, forMaximum: estimate }),
        async (round) => {
          const limit = await pgbench(`listar-pgbench-${round}`, 'listar.sql', database.url, { first: BENCH_FIRST_RUT, members: MEMBERS }, 'prepared');
          return { limit, limitRate: limit.tps };
        },
      );
      console.log('');
    }

    // --- Calls 2 → 7, the whole own-account payment --------------------------------------------------------------
    if (ONLY.has('payment')) {
      console.log('own-account payment: listar → seleccionar → autentica → autorizar → pagar → consultar');
      const captchas = async (name, flows) => {
        const file = join(OUT, `${name}.captchas.json`);
        writeFileSync(file, JSON.stringify(await solveCaptchas(baseUrl, Math.ceil(flows) * 2)));
        return file;
      };
      const payment = { scenario: 'payment', url: baseUrl, members };
      const warm = await load('payment-warmup', { ...payment, duration: WARMUP, captchasFile: await captchas('payment-warmup', 1500) });
      const estimate = Math.max(1000, warm.flowsPerSecond * 2.5 * DURATION);
      results.payment = await measureRounds(
        (round) => apiMaximumAnd70('payment', round, payment, (run) => run.flowsPerSecond, { solve: captchas, forMaximum: estimate }),
        async (round) => {
          const limit = await pgbench(`payment-pgbench-${round}`, 'payment.sql', database.url, {
            first: BENCH_FIRST_RUT,
            members: MEMBERS,
            clients: CONNECTIONS,
            iter: 0,
          }, 'prepared');
          return { limit, limitRate: limit.tps };
        },
      );
      console.log('');
    }
  } finally {
    for (const proc of processes.reverse()) await proc.stop();
    await sleep(200);
    await database.drop();
  }

  // --- The table ------------------------------------------------------------------------------------------------
  const rows = [];
  let failed = false;
  const check = (ok) => {
    failed ||= !ok;
    return ok ? 'ok' : '**MISSED**';
  };
  const clean = (r) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 && r.businessErrors === 0;
  const percent = (ratio) => `${(ratio * 100).toFixed(0)}%`;
  /** One flow's row: the medians first, each round's figures after them. */
  const row = (what, measured, target, [unit, apiDigits], [limitName, limitUnit, limitDigits]) => {
    const { rounds } = measured;
    const rates = (pick, digits) => rounds.map((r) => pick(r).toFixed(digits)).join(' / ');
    return [
      what,
      `${median(rounds.map((r) => r.apiRate)).toFixed(apiDigits)} ${unit} (${rates((r) => r.apiRate, apiDigits)})`,
      `${limitName} ${median(rounds.map((r) => r.limitRate)).toFixed(limitDigits)} ${limitUnit} (${rates((r) => r.limitRate, limitDigits)})`,
      `${percent(measured.ratio)} (${measured.ratios.map(percent).join(' / ')}; ≥ ${target * 100}%) ${check(measured.ratio >= target)}`,
      `${measured.p99} ms (${measured.p99s.join(' / ')}) ${check(measured.p99 < TARGETS.p99Ms)}`,
      check(rounds.every((r) => clean(r.api) && clean(r.steady))),
    ];
  };
  if (results.parametros) rows.push(row('POST /prod/parametro/consultar', results.parametros, TARGETS.parametros, ['req/s', 0], ['node:http', 'req/s', 0]));
  if (results.listar) rows.push(row('POST /prod/producto/listar', results.listar, TARGETS.listar, ['req/s', 0], ['pgbench', 'tps', 0]));
  if (results.payment) rows.push(row('own-account payment (calls 2–7)', results.payment, TARGETS.payment, ['payments/s', 1], ['pgbench', 'tps', 1]));
  console.log(`| what (median of ${ROUNDS} rounds; each round in brackets) | API, maximum | bare limit, same round | API / limit | p99 at a constant 70% of the round's maximum | no non-2xx, no business error |`);
  console.log('|---|---|---|---|---|---|');
  for (const line of rows) console.log(`| ${line.join(' | ')} |`);
  writeFileSync(join(OUT, 'summary.json'), `${JSON.stringify({ date: new Date().toISOString(), connections: CONNECTIONS, duration: DURATION, rounds: ROUNDS, results }, null, 2)}\n`);
  if (failed) {
    console.error('\nbench: a target was missed (see the table).');
    process.exit(1);
  }
}

await main();
