#!/usr/bin/env node
// `npm run bench`: each flow's capacity, then its latency at a constant 70% of that capacity (docs/PERFORMANCE.md,
// decisions 012 and 013). Targets: p99 < 100 ms at 70% (150 ms for the own-account payment, which waits for the
// core), and no answer but the expected one (2xx; the Webpay return's 303). bench/compare.mjs compares two builds.
//
// The API (PERF_API_SERVER, default this tree's apps/api/dist/server.js), the Webpay simulator (PERF_WEBPAY_SIM,
// default this tree's) and the load generator (bench/load.mjs) each run in a process of their own; PostgreSQL is the
// server of BENCH_DATABASE_URL, on which a database of the benchmark's own is created and dropped.
//
// Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_DURATION (s, default 10),
// BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (default 3), BENCH_ONLY (some of
// parametros,listar,payment,card), BENCH_OUT (default .e2e-artifacts/bench), PERF_API_SERVER, PERF_WEBPAY_SIM,
// BENCH_API_NODE_ARGS (Node options for the API, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), PERF_CORE_SIM and
// BENCH_CORE_LATENCY_MS (the core simulator, answering each call after 20 ms by default).

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import {
  apiEnvironment,
  benchMemberProfiles,
  cpuSampler,
  createDatabase,
  FLOWS,
  freePort,
  median,
  openSessions,
  PARAMETROS_BODY,
  PEAK_PER_SECOND,
  ROOT,
  seedBenchMembers,
  sleep,
  solveCaptchas,
  startProcess,
  waitHealthy,
} from './lib.mjs';

const BASE_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 3)));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ONLY = (process.env.BENCH_ONLY ?? Object.keys(FLOWS).join(',')).split(',').filter((flow) => flow in FLOWS);
const OUT = resolve(process.env.BENCH_OUT ?? join(ROOT, '.e2e-artifacts', 'bench'));
const API_SERVER = resolve(process.env.PERF_API_SERVER ?? join(ROOT, 'apps/api/dist/server.js'));
const SIM_SERVER = resolve(process.env.PERF_WEBPAY_SIM ?? join(ROOT, 'apps/webpay-sim/dist/server.js'));
const CORE_SERVER = resolve(process.env.PERF_CORE_SIM ?? join(ROOT, 'apps/core-sim/dist/server.js'));
// What the core takes to answer each call (the issue's figure for a core on the cooperative's network).
const CORE_LATENCY_MS = Number(process.env.BENCH_CORE_LATENCY_MS ?? 20);
/** The unrecorded start of each constant-rate run, at its own rate: a new process's JIT and connections. */
const PACED_WARMUP = 2;
const LOAD_FRACTION = 0.7;
// Enough sessions that no two connections wait on one member, and instalments for every run of every round.
const MEMBERS_PER_FLOW = 500;
const INSTALMENTS = 48;

for (const [name, file] of [['PERF_API_SERVER', API_SERVER], ['PERF_WEBPAY_SIM', SIM_SERVER]]) {
  if (!existsSync(file)) {
    console.error(`bench: ${file} (${name}) is missing; run \`npm run build\` in its tree first.`);
    process.exit(2);
  }
}
mkdirSync(OUT, { recursive: true });

/** The processes whose CPU each run accounts: the API, the simulator, and PostgreSQL's backends of our database. */
const measured = { api: -1, sim: -1, core: -1, database: '' };

/** One run in the load generator's process; prints its line and answers its figures. */
async function load(name, spec, unit) {
  const file = join(OUT, `${name}.spec.json`);
  writeFileSync(file, JSON.stringify({ connections: CONNECTIONS, duration: DURATION, pacedWarmup: PACED_WARMUP, ...spec }));
  const { stdout, cpu } = await new Promise((done, failed) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/load.mjs'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = cpuSampler({ api: measured.api, sim: measured.sim, postgres: measured.database, generator: child.pid ?? -1 });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', failed);
    child.once('close', (code) => {
      const used = sampler.stop();
      if (code === 0) done({ stdout: out, cpu: used });
      else failed(new Error(`bench/load.mjs exited with ${code}:\n${out}\n${err}`));
    });
  });
  // Spent captchas and sessions are of no further use, and can weigh megabytes.
  rmSync(file, { force: true });
  if (spec.captchasFile) rmSync(spec.captchasFile, { force: true });
  const result = JSON.parse(stdout.trim().split('\n').pop());
  result.rate = unit === 'payments/s' || spec.scenario === 'listar' ? result.flowsPerSecond : result.requestsPerSecond;
  const units = Math.max(1, result.flows + result.warmupFlows);
  const perUnit = (seconds) => Math.round((seconds * 1000 * 100) / units) / 100;
  result.cpuMsPerFlow = { api: perUnit(cpu.api), sim: perUnit(cpu.sim), postgres: perUnit(cpu.postgres), generator: perUnit(cpu.generator) };
  result.steal = cpu.steal;
  const c = result.cpuMsPerFlow;
  console.log(
    `  ${name.padEnd(24)} ${`${result.rate.toFixed(1)} ${unit}`.padEnd(20)} p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ` +
      `non-2xx ${result.non2xx}  errors ${result.errors}  business errors ${result.businessErrors}${result.sampleError ? `  (${result.sampleError.slice(0, 160)})` : ''}`,
  );
  console.log(
    `  ${''.padEnd(24)} CPU ms per ${unit === 'payments/s' ? 'payment' : 'request'}: API ${c.api}, PostgreSQL ${c.postgres}${spec.simUrl ? `, simulator ${c.sim}` : ''}, ` +
      `load generator ${c.generator}; steal ${cpu.steal.share}% (at most ${cpu.steal.maxSecond}% in a second)` +
      (result.lateStartMs ? `; flows started late by p99 ${result.lateStartMs.p99} ms` : ''),
  );
  if (unit === 'payments/s' && Object.keys(result.steps).length) {
    console.log(`  ${''.padEnd(24)} per call, p50/p99 ms: ${Object.entries(result.steps).map(([path, t]) => `${path.split('/').pop()} ${t.p50}/${t.p99}`).join(', ')}`);
  }
  return result;
}

const clean = (run) => run.non2xx === 0 && run.errors === 0 && run.businessErrors === 0;

async function main() {
  console.log(`bench: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`bench: API ${API_SERVER}`);
  console.log(`bench: ${CONNECTIONS} connections, ${WARMUP} s warm-up per flow, ${ROUNDS} round(s) of ${DURATION} s at capacity then ${DURATION} s at a constant ${LOAD_FRACTION * 100}%\n`);
  const database = await createDatabase(BASE_DATABASE_URL);
  measured.database = database.name;
  const processes = [];
  const results = {};
  try {
    const [port, simPort, corePort] = [await freePort(), await freePort(), await freePort()];
    const baseUrl = `http://127.0.0.1:${port}`;
    const simUrl = `http://127.0.0.1:${simPort}`;
    const coreUrl = `http://127.0.0.1:${corePort}`;
    const sim = startProcess([SIM_SERVER], { HOST: '127.0.0.1', WEBPAY_SIM_PORT: String(simPort), WEBPAY_SIM_PUBLIC_URL: simUrl });
    processes.push(sim);
    await waitHealthy(simUrl, sim, 'Webpay simulator');
    measured.sim = sim.child.pid;
    // The core holds the bench members too, and answers every call after CORE_LATENCY_MS.
    const coreMembers = join(OUT, 'core-members.json');
    writeFileSync(coreMembers, JSON.stringify(benchMemberProfiles(2 * MEMBERS_PER_FLOW, INSTALMENTS)));
    const core = startProcess([CORE_SERVER], { HOST: '127.0.0.1', CORE_SIM_PORT: String(corePort), CORE_SIM_MEMBERS_FILE: coreMembers });
    processes.push(core);
    await waitHealthy(coreUrl, core, 'core simulator');
    await fetch(`${coreUrl}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: CORE_LATENCY_MS }) });
    measured.core = core.child.pid;
    const logFd = openSync(join(OUT, 'api.log'), 'w');
    // Request logs at info, written to a file, as deployed.
    const api = startProcess([...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean), API_SERVER], apiEnvironment({ port, databaseUrl: database.url, logLevel: 'info', webpayUrl: simUrl, coreUrl }), {
      stdio: logFd,
    });
    processes.push(api);
    await waitHealthy(baseUrl, api, 'API', '/ready');
    closeSync(logFd);
    measured.api = api.child.pid;

    const ruts = await seedBenchMembers(database.url, 2 * MEMBERS_PER_FLOW, INSTALMENTS);
    const membersOf = { parametros: [], listar: ruts.slice(0, MEMBERS_PER_FLOW), payment: ruts.slice(0, MEMBERS_PER_FLOW), card: ruts.slice(MEMBERS_PER_FLOW) };
    const captchasFile = async (name, count) => {
      const file = join(OUT, `${name}.captchas.json`);
      writeFileSync(file, JSON.stringify(await solveCaptchas(baseUrl, Math.ceil(count))));
      return file;
    };

    /** The spec of one run of `flow` expected to carry `flows` flows: its captchas solved and sessions opened. */
    async function specOf(flow, name, flows) {
      const spec = { scenario: flow, url: baseUrl };
      if (flow === 'parametros') return { ...spec, path: '/prod/parametro/consultar', body: PARAMETROS_BODY };
      if (flow === 'listar') return { ...spec, members: membersOf.listar, captchasFile: await captchasFile(name, flows) };
      const members = membersOf[flow];
      const sessions = await openSessions(baseUrl, members, await solveCaptchas(baseUrl, members.length), CONNECTIONS);
      if (sessions.length < members.length) console.log(`  ${name}: ${members.length - sessions.length} member(s) without a session or an instalment left`);
      // Call 4 spends a captcha per own-account payment.
      return { ...spec, sessions, ...(flow === 'payment' ? { captchasFile: await captchasFile(name, flows) } : { simUrl }) };
    }

    for (const flow of ONLY) {
      const { title, unit } = FLOWS[flow];
      console.log(title);
      const warm = await load(`${flow}-warmup`, { ...(await specOf(flow, `${flow}-warmup`, (flow === 'listar' ? 2000 : 200) * WARMUP)), duration: WARMUP }, unit);
      // A run that runs out of captchas counts business errors: budget for twice the warm-up's rate (a warm process is
      // faster), or 1.3 times the fastest round so far.
      let fastest = warm.rate * 2;
      const rounds = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const capacityRun = await load(`${flow}-capacity-${round}`, await specOf(flow, `${flow}-capacity-${round}`, Math.max(1000, fastest * DURATION)), unit);
        fastest = Math.max(fastest, capacityRun.rate * 1.3);
        const rate = capacityRun.rate * LOAD_FRACTION;
        const paced = await load(`${flow}-70%-${round}`, { ...(await specOf(flow, `${flow}-70-${round}`, rate * (DURATION + PACED_WARMUP) * 1.1 + 100)), pacedRate: rate }, unit);
        rounds.push({ capacity: capacityRun, paced });
      }
      results[flow] = {
        flow,
        title,
        unit,
        capacity: median(rounds.map((r) => r.capacity.rate)),
        capacities: rounds.map((r) => r.capacity.rate),
        p50: median(rounds.map((r) => r.paced.latency.p50)),
        p99: median(rounds.map((r) => r.paced.latency.p99)),
        p99s: rounds.map((r) => r.paced.latency.p99),
        non2xx: rounds.reduce((sum, r) => sum + r.capacity.non2xx + r.paced.non2xx, 0),
        clean: rounds.every((r) => clean(r.capacity) && clean(r.paced)),
        rounds,
      };
      console.log('');
    }
  } finally {
    for (const proc of processes.reverse()) await proc.stop();
    await sleep(200);
    await database.drop();
  }

  let missed = false;
  const verdict = (ok) => {
    missed ||= !ok;
    return ok ? 'ok' : '**missed**';
  };
  const digits = (unit) => (unit === 'payments/s' ? 1 : 0);
  const ms = (value) => Math.round(value * 10) / 10;
  console.log(`| flow (median of ${ROUNDS} round(s); each round in brackets) | capacity | p50 / p99 at a constant 70% (p99 target) | non-2xx (0) | headroom over the peak hour |`);
  console.log('|---|---|---|---|---|');
  for (const r of Object.values(results)) {
    const d = digits(r.unit);
    console.log(
      `| ${r.title} | ${r.capacity.toFixed(d)} ${r.unit} (${r.capacities.map((c) => c.toFixed(d)).join(' / ')}) | ` +
        `${ms(r.p50)} / ${ms(r.p99)} ms (${r.p99s.map(ms).join(' / ')}) < ${FLOWS[r.flow].p99TargetMs} ms ${verdict(r.p99 < FLOWS[r.flow].p99TargetMs)} | ${r.non2xx} ${verdict(r.clean)} | ${(r.capacity / PEAK_PER_SECOND[r.flow]).toFixed(1)}× |`,
    );
  }
  writeFileSync(
    join(OUT, 'summary.json'),
    `${JSON.stringify({ date: new Date().toISOString(), apiServer: API_SERVER, connections: CONNECTIONS, duration: DURATION, rounds: ROUNDS, results }, null, 2)}\n`,
  );
  console.log(`\nbench: ${join(OUT, 'summary.json')}`);
  if (missed) {
    console.error('bench: a target was missed (see the table).');
    process.exit(1);
  }
}

await main();
