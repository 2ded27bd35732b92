// Helpers of the API benchmark (bench/run.mjs, bench/login-burst.mjs): processes, the benchmark's own PostgreSQL
// database, its members, captchas solved ahead of the timed part, and the CPU each process used.

import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value below which a fraction `q` of the ascending `sorted` latencies fall, in ms to one decimal. */
export const quantile = (sorted, q) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;

/** A child process whose output is kept (or sent to a file descriptor), with a way to stop it. */
export function startProcess(args, env, { stdio = 'pipe', cwd = ROOT } = {}) {
  let output = '';
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : ['ignore', stdio, stdio],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return {
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
        child.kill('SIGTERM');
      }),
  };
}

export async function waitHealthy(url, proc, name, path = '/health') {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${name} exited with ${proc.child.exitCode}:\n${proc.output()}`);
    try {
      if ((await fetch(`${url}${path}`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start in time:\n${proc.output()}`);
    await sleep(150);
  }
}

/** A fresh database of the benchmark's own on the PostgreSQL server of `baseUrl`, dropped by `drop()`. */
export async function createDatabase(baseUrl) {
  const name = `pago_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Check digit of a RUT number (módulo 11). */
export function checkDigit(number) {
  let sum = 0;
  let factor = 2;
  for (let n = number; n > 0; n = Math.floor(n / 10)) {
    sum += (n % 10) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? '0' : digit === 10 ? 'K' : String(digit);
}

export const BENCH_FIRST_RUT = 30_000_000;
export const BENCH_INSTALMENT = 10_000;
const COLUMNS = 'ABCDEFGHIJ';

/** The demo card formula (README): value(column, row) = (n + 7·c + 13·row) mod 100, n = RUT number mod 100. */
export function coordinate(rut, cell) {
  const n = Number.parseInt(rut.split('-')[0], 10) % 100;
  return String((n + 7 * COLUMNS.indexOf(cell.charAt(0)) + 13 * Number(cell.slice(1))) % 100).padStart(2, '0');
}

function card(rut) {
  const cells = {};
  for (const column of COLUMNS) for (let row = 1; row <= 5; row++) cells[`${column}${row}`] = coordinate(rut, `${column}${row}`);
  return cells;
}

/**
 * `count` members for the payment benchmark, each with a consumer credit of `instalments` monthly instalments of
 * $10.000 (the first due in 10 days), an own account with enough money, password 1234 (the demo members' argon2id
 * hash, same parameters as the seed) and a coordinate card. Returns their canonical RUTs.
 */
/** The bench members as the core simulator seeds them (the demo members' shape): the same accounts and credits. */
export function benchMemberProfiles(count, instalments) {
  return Array.from({ length: count }, (_, i) => {
    const number = BENCH_FIRST_RUT + i;
    return {
      rut: `${number}-${checkDigit(number)}`,
      name: `Socio de prueba ${i + 1}`,
      email: `socio.${i}@bench.example`,
      scenario: 'bench',
      account: { numeroCuenta: `9${String(i).padStart(11, '0')}`, saldo: 1_000_000_000 },
      factors: [1],
      products: [
        {
          family: 'PC',
          numeroProducto: `49${String(i).padStart(10, '0')}`,
          instalments: Array.from({ length: instalments }, (_, n) => ({ numeroCuota: n + 1, monto: BENCH_INSTALMENT, dueInDays: 10 + 30 * n })),
        },
      ],
    };
  });
}

export async function seedBenchMembers(databaseUrl, count, instalments) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`select password_hash from members where rut = '11111111-1'`);
    const passwordHash = rows[0]?.password_hash;
    if (!passwordHash) throw new Error('the demo members are not seeded (SANDBOX=1 seeds them at boot)');
    const ruts = [];
    await client.query('begin');
    for (let i = 0; i < count; i++) {
      const number = BENCH_FIRST_RUT + i;
      const rut = `${number}-${checkDigit(number)}`;
      ruts.push(rut);
      const {
        rows: [member],
      } = await client.query(`insert into members (rut, name, password_hash) values ($1, $2, $3) returning id`, [rut, `Socio de prueba ${i + 1}`, passwordHash]);
      await client.query(`insert into accounts (member_id, numero_cuenta, saldo) values ($1, $2, 1000000000)`, [member.id, `9${String(i).padStart(11, '0')}`]);
      await client.query(`insert into coordinate_cards (member_id, serial, cells) values ($1, $2, $3)`, [member.id, `BENCH-${i}`, JSON.stringify(card(rut))]);
      const {
        rows: [product],
      } = await client.query(
        `insert into products (member_id, family, numero_producto, numero_cuotas_pactadas, deuda_total) values ($1, 'PC', $2, $3, $4) returning id`,
        [member.id, `49${String(i).padStart(10, '0')}`, instalments, instalments * BENCH_INSTALMENT],
      );
      await client.query(
        `insert into instalments (product_id, numero_cuota, monto_original, monto_pendiente, pago_minimo, fecha_vencimiento)
         select $1, n, $2, $2, 0, current_date + 10 + 30 * (n - 1) from generate_series(1, $3::int) as n`,
        [product.id, BENCH_INSTALMENT, instalments],
      );
    }
    await client.query('commit');
    await client.query('analyze');
    return ruts;
  } finally {
    await client.end();
  }
}

/**
 * `count` captchas issued by the API and solved as the browser does (altcha-lib), before the timed part. All the
 * load comes from one address, so the benchmark lifts the challenge endpoint's per-address limit
 * (RATE_LIMIT_CAPTCHA_PER_IP) as it lifts the others.
 */
export async function solveCaptchas(baseUrl, count) {
  const out = [];
  const batch = 50;
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    const solved = await Promise.all(
      Array.from({ length: size }, async () => {
        const res = await fetch(`${baseUrl}/api/captcha/challenge`);
        if (!res.ok) throw new Error(`captcha challenge: HTTP ${res.status}`);
        const challenge = await res.json();
        const solution = await solveChallenge({ challenge, deriveKey });
        if (!solution) throw new Error('could not solve a captcha');
        return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      }),
    );
    out.push(...solved);
  }
  return out;
}

/** Today's business noon: inside every family's opening hours, whenever the benchmark runs (the domain's rule, through tsx). */
export const { businessNoon } = await tsImport('../packages/domain/src/business-time.ts', import.meta.url);

/**
 * The API's environment under a benchmark: the production build with the sandbox's demo seed and the business clock
 * pinned at noon so the opening hours never refuse a selection. NODE_ENV is 'test': production refuses the sandbox.
 */
export function apiEnvironment({ port, databaseUrl, logLevel, webpayUrl = 'http://127.0.0.1:9', coreUrl = 'http://127.0.0.1:9' }) {
  return {
    NODE_ENV: 'test',
    SANDBOX: '1',
    SANDBOX_CLOCK: businessNoon().toISOString(),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: logLevel,
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
    ALTCHA_HMAC_SECRET: randomBytes(32).toString('hex'),
    // Small proof of work so that thousands of captchas can be solved before the runs: the server's check of a
    // solution is one hash whatever the counter, so this changes nothing of what is measured.
    ALTCHA_COUNTER_MIN: '1',
    ALTCHA_COUNTER_MAX: '50',
    WEBPAY_COMMERCE_CODE: '597055555535',
    WEBPAY_API_KEY: '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C',
    WEBPAY_BASE_URL: webpayUrl,
    CORE_BASE_URL: `${coreUrl}/fineract-provider/api`,
    // The load comes from one address: the per-address and per-RUT limits would answer 429 to it.
    RATE_LIMIT_LISTAR_PER_IP: '100000000',
    RATE_LIMIT_LISTAR_PER_RUT: '100000000',
    RATE_LIMIT_LISTAR_RUT_CEILING: '100000000',
    RATE_LIMIT_MAIL_PER_IP: '100000000',
    RATE_LIMIT_PDF_PER_SESSION: '100000000',
    RATE_LIMIT_PDF_PER_IP: '100000000',
    RATE_LIMIT_SELECT_PER_SESSION: '100000000',
    RATE_LIMIT_SELECT_PER_IP: '100000000',
    RATE_LIMIT_LOG_PER_IP: '100000000',
    RATE_LIMIT_ADMIN_PER_IP: '100000000',
    RATE_LIMIT_LOGIN_PER_IP: '100000000',
    RATE_LIMIT_LOGIN_PER_PAYER: '100000000',
    RATE_LIMIT_LOGIN_FAILED_PAYERS: '100000000',
    RATE_LIMIT_PAY_PER_IP: '100000000',
    RATE_LIMIT_CAPTCHA_PER_IP: '100000000',
    RATE_LIMIT_RETURN_PER_IP: '100000000',
  };
}

export const PARAMETROS_BODY = { consultarParametrosRequest: { userId: '11111111-1', canalLlamada: 'PGEX', tipo: 'PE' } };

/** The machine's cores' time so far, from /proc/stat (Linux): all of it, and what the hypervisor took (steal). */
function coreTimes() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').slice(0, 200).split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: fields.reduce((sum, value) => sum + value, 0), steal: fields[7] ?? 0 };
  } catch {
    return { total: 0, steal: 0 };
  }
}

/**
 * What share of the cores' time the hypervisor took (steal) over samples of coreTimes() 100 ms apart: over the whole
 * run, and at most over one second of it. A VM's neighbours slow every process alike, so a run with much of it
 * measures the host more than the service.
 */
function stealOf(samples) {
  const share = (from, to) => {
    const total = to.total - from.total;
    return total > 0 ? Math.round((100 * (to.steal - from.steal)) / total) : 0;
  };
  const whole = samples.length < 2 ? 0 : share(samples[0], samples.at(-1));
  let maxSecond = samples.length <= 10 ? whole : 0;
  for (let i = 10; i < samples.length; i++) maxSecond = Math.max(maxSecond, share(samples[i - 10], samples[i]));
  return { share: whole, maxSecond };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null once it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Adds up the CPU time used while it runs by each group of processes: `{ name: pid }` for one process, or
 * `{ name: 'text' }` for every process whose command line contains the text (the PostgreSQL backends of the
 * benchmark's database, which come and go). Polls /proc every 100 ms and keeps each process's last reading; a
 * process that ends between two polls loses at most its last 100 ms.
 */
export function cpuSampler(groups) {
  const byPid = new Map(Object.entries(groups).filter(([, v]) => typeof v === 'number').map(([k, v]) => [String(v), k]));
  const patterns = Object.entries(groups).filter(([, v]) => typeof v === 'string');
  const seen = new Map(); // pid → group name, or null for processes of no group
  const first = new Map();
  const last = new Map();
  const cores = [];
  let started = false;
  const sample = () => {
    cores.push(coreTimes());
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      if (!seen.has(pid)) {
        let name = byPid.get(pid) ?? null;
        if (!name && patterns.length) {
          try {
            const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
            name = patterns.find(([, text]) => cmdline.includes(text))?.[0] ?? null;
          } catch {
            name = null;
          }
        }
        seen.set(pid, name);
      }
      const name = seen.get(pid);
      if (!name) continue;
      const seconds = cpuSeconds(pid);
      if (seconds === null) continue;
      // A process that appears after the start used all its CPU during the run.
      if (!first.has(pid)) first.set(pid, started ? 0 : seconds);
      last.set(pid, { name, seconds });
    }
  };
  sample();
  started = true;
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const totals = Object.fromEntries(Object.keys(groups).map((key) => [key, 0]));
      for (const [pid, { name, seconds }] of last) totals[name] += seconds - (first.get(pid) ?? 0);
      totals.steal = stealOf(cores);
      return totals;
    },
  };
}

/** The peak hour's rates each flow must carry, per second: the demand model of docs/PERFORMANCE.md. */
export const PEAK_PER_SECOND = { parametros: 28.1, listar: 18.8, payment: 5.6, card: 3.8 };

/** What each flow is, and the unit its capacity is counted in. */
// p99TargetMs: DESIGN.md's 100 ms at 70% of capacity; the own-account payment waits for the core's debit, a round
// trip the cooperative's network sets, and has 150 ms.
export const FLOWS = {
  parametros: { title: 'parameters (call 1)', unit: 'req/s', p99TargetMs: 100 },
  listar: { title: 'listing (call 2, captcha)', unit: 'req/s', p99TargetMs: 100 },
  payment: { title: 'own-account payment (calls 3–7)', unit: 'payments/s', p99TargetMs: 150 },
  card: { title: 'card payment (calls 3, 9, 10, Webpay, return, 7)', unit: 'payments/s', p99TargetMs: 100 },
};

/** The middle value, or the mean of the two middle ones for an even count. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Call 2 once for each member, before a payments' run: its session and its credit's pending instalments, oldest
 * first, which bench/load.mjs then pays. A member whose listing is refused is left out.
 */
export async function openSessions(baseUrl, ruts, captchas, connections = 10) {
  const queue = ruts.map((rut, i) => [rut, captchas[i]]);
  const sessions = [];
  const open = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [rut, captcha] = next;
      const res = await fetch(`${baseUrl}/prod/producto/listar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: captcha },
        body: JSON.stringify({ listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } }),
      });
      const answer = res.ok ? (await res.json()).listarDetalleProductosResponse : undefined;
      const product = answer?.listaProductos?.find((p) => p.tipoFamiliaProducto === 'PC');
      const pending = [product?.listaDetalleProductos ?? []]
        .flat()
        .filter((d) => d.montoPendiente > 0)
        .map(({ numeroCuota, montoPendiente, fechaVencimiento }) => ({ numeroCuota, montoPendiente, fechaVencimiento }));
      if (answer?.token && pending.length) {
        const { numeroProducto, nombreFamiliaProducto } = product;
        sessions.push({ rut, token: answer.token, product: { numeroProducto, nombreFamiliaProducto }, pending });
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, open));
  return sessions;
}
