import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { businessNoon, coreBooks, E2E_ADMIN_TOKEN, freePort } from './support/product';

// Two API processes behind nginx on one PostgreSQL, rate limits in Redis: what a deployment with replicas is.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BASE_DB = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Proc {
  child: ChildProcess;
  log: () => string;
}

function start(cmd: string, args: string[], env: Record<string, string>): Proc {
  let log = '';
  const child = spawn(cmd, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  return { child, log: () => log };
}

async function waitFor(url: string, proc: Proc, name: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${name} exited:\n${proc.log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${proc.log()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

// Needs PostgreSQL, like the API tests on it: runs when DATABASE_URL is set (as in CI).
describe.skipIf(!process.env.DATABASE_URL)('two API replicas behind nginx on one PostgreSQL', () => {
  const dbName = `pago_scale_${process.pid}_${Date.now()}`;
  const dbUrl = new URL(BASE_DB);
  dbUrl.pathname = `/${dbName}`;
  const procs: Proc[] = [];
  let front = '';
  let sim = '';
  let core = '';
  let db: pg.Pool;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: BASE_DB });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    db = new pg.Pool({ connectionString: dbUrl.toString() });

    const [a, b, simPort, frontPort, corePort] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    front = `http://127.0.0.1:${frontPort}`;
    sim = `http://127.0.0.1:${simPort}`;
    const simProc = start(process.execPath, ['apps/webpay-sim/dist/server.js'], { HOST: '127.0.0.1', WEBPAY_SIM_PORT: String(simPort), WEBPAY_SIM_PUBLIC_URL: sim });
    procs.push(simProc);
    await waitFor(`${sim}/health`, simProc, 'simulator');
    // Both replicas book in one core.
    core = `http://127.0.0.1:${corePort}`;
    const coreProc = start(process.execPath, ['apps/core-sim/dist/server.js'], { HOST: '127.0.0.1', CORE_SIM_PORT: String(corePort), CORE_SIM_TODAY: businessNoon().toISOString().slice(0, 10) });
    procs.push(coreProc);
    await waitFor(`${core}/health`, coreProc, 'core simulator');
    for (const port of [a, b]) {
      const api = start(process.execPath, ['apps/api/dist/server.js'], {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: dbUrl.toString(),
        REDIS_URL,
        SANDBOX: '1',
        ADMIN_TOKEN: E2E_ADMIN_TOKEN,
        // One secret for both: a captcha solved against one replica is checked by the other.
        ALTCHA_HMAC_SECRET: 'scale-out-test-secret-0123456789abcdef',
        SANDBOX_CLOCK: businessNoon().toISOString(),
        PUBLIC_BASE_URL: front,
        // nginx is the one proxy in front: the client's address is the one it adds.
        TRUST_PROXY: '127.0.0.1',
        WEBPAY_BASE_URL: sim,
        CORE_BASE_URL: `${core}/fineract-provider/api`,
        WEBPAY_SETTLE_AFTER_SECONDS: '1',
        RECONCILE_INTERVAL_SECONDS: '1',
        RATE_LIMIT_LISTAR_PER_IP: '1000',
        RATE_LIMIT_LOGIN_PER_IP: '1000',
        RATE_LIMIT_LOGIN_PER_PAYER: '1000',
        RATE_LIMIT_LOGIN_FAILED_PAYERS: '1000',
        LOG_LEVEL: 'info',
      });
      procs.push(api);
      await waitFor(`http://127.0.0.1:${port}/ready`, api, `api :${port}`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'pago-nginx-'));
    writeFileSync(
      join(dir, 'nginx.conf'),
      `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 256; }
http {
  access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  upstream api { server 127.0.0.1:${a}; server 127.0.0.1:${b}; }
  server {
    listen 127.0.0.1:${frontPort};
    location / {
      proxy_pass http://api;
      proxy_set_header Host $host; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; proxy_set_header X-Forwarded-Proto $scheme;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`,
    );
    const nginx = start(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir], {});
    procs.push(nginx);
    await waitFor(`${front}/health`, nginx, 'nginx');
  });

  afterAll(async () => {
    for (const p of procs.reverse()) {
      if (p.child.exitCode === null) {
        const done = new Promise((r) => p.child.once('exit', r));
        p.child.kill('SIGTERM');
        await done;
      }
    }
    await db?.end();
    const admin = new pg.Client({ connectionString: BASE_DB });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  const upstreams = new Set<string>();
  async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${front}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    upstreams.add(res.headers.get('x-upstream') ?? '');
    return (await res.json()) as Record<string, Record<string, unknown>>;
  }
  async function captcha() {
    const res = await fetch(`${front}/api/captcha/challenge`);
    upstreams.add(res.headers.get('x-upstream') ?? '');
    const challenge = (await res.json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
  async function listAndSelect(rut: string, numeroProducto: string) {
    const list = (await call('/prod/producto/listar', { listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } }, { authorization: await captcha() }))
      .listarDetalleProductosResponse as { token: string; listaProductos: { numeroProducto: string; nombreFamiliaProducto: string; tipoFamiliaProducto: string; listaDetalleProductos: { numeroCuota: number; montoPendiente: number; fechaVencimiento: string }[] }[] };
    // The list names products by a per-session reference ending with the number's last four digits.
    const p = list.listaProductos.find((x) => x.numeroProducto.endsWith(numeroProducto.slice(-4)))!;
    const d = p.listaDetalleProductos[0]!;
    const sel = (
      await call('/prod/producto/seleccionar', {
        seleccionarProductoRequest: {
          userId: rut,
          canalLlamada: 'PGEX',
          token: list.token,
          rut,
          producto: [{ numeroProducto: p.numeroProducto, tipoFamiliaProducto: p.tipoFamiliaProducto, nombreFamiliaProducto: p.nombreFamiliaProducto, detalleProducto: [{ numeroCuota: String(d.numeroCuota), valorAPagar: d.montoPendiente, fechaVencimiento: d.fechaVencimiento }] }],
        },
      })
    ).seleccionarProductoResponse as { idTransaccion: string; montoTotal: number };
    return { token: list.token, ref: p.numeroProducto, ...sel };
  }

  it('carries a session and an own-account payment across both replicas', async () => {
    const rut = '11111111-1';
    const { token, idTransaccion, montoTotal } = await listAndSelect(rut, '630055667788');
    const login = (await call('/prod/pago/producto/cuentavista/autentica', { autenticaConsultaFactoresRequest: { userId: rut, canalLlamada: 'PGEX', token, autenticacion: { rut: '11111111', dv: '1', clave: '1234' } } }, { authorization: await captcha() }))
      .autenticaConsultaFactoresResponse as { numeroCuenta: string };
    const challenge = (await call('/prod/pago/producto/cuentavista/autorizar', { autorizarPagoProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token, factor: 1, rut, rutPago: rut } }))
      .autorizarPagoProductoCVResponse as { desafio: { item: { valor: string }[] } };
    const card = demoCoordinateCard(rut);
    const pagar = { pagarProductoCVRequest: { userId: rut, canalLlamada: 'PGEX', token, rutTitular: rut, numeroCuenta: login.numeroCuenta, rutPago: rut, factor: 1, desafio: { item: challenge.desafio.item.map((i) => ({ valor: card[i.valor]! })) } } };
    // The same payment sent to both replicas at once: money moves once.
    const [one, two] = await Promise.all([call('/prod/pago/producto/cuentavista/pagar', pagar), call('/prod/pago/producto/cuentavista/pagar', pagar)]);
    expect(one.pagarProductoCVResponse).toEqual(two.pagarProductoCVResponse);
    expect((one.pagarProductoCVResponse as { productoPagadoCV: { montoPagado: number } }).productoPagadoCV.montoPagado).toBe(montoTotal);
    const voucher = await call('/prod/pago/consultar', { consultarPagoRequest: { userId: rut, canalLlamada: 'PGEX', token, idTransaccion } });
    expect(JSON.stringify(voucher)).toContain('CUENTA VISTA');
    const { rows } = await db.query('select saldo from accounts where numero_cuenta = $1', [login.numeroCuenta]);
    // Money columns are bigint: pg returns them as text.
    expect(Number(rows[0].saldo)).toBe(5_000_000 - montoTotal);
    // And the core debited it once, whichever replica asked first.
    const books = await coreBooks(core);
    expect(books.writes.filter((w) => w.idempotencyKey === `${idTransaccion}-1` && w.statusCode === 200 && w.note !== 'served from cache')).toHaveLength(1);
    expect(books.savings.find((a) => a.externalId === login.numeroCuenta)!.balance).toBe(5_000_000 - montoTotal);
    expect([...upstreams].filter(Boolean).length).toBe(2);
  });

  it('lets the replicas’ reconciliation settle an abandoned card payment exactly once', async () => {
    const rut = '14141414-3';
    const { token, idTransaccion, montoTotal, ref } = await listAndSelect(rut, '630014141414');
    const auth = (await call('/api/pagoexpress/auth', { idTransaction: idTransaccion }, { authorization: `Bearer ${token}` })) as unknown as { token: string };
    const init = (await call('/api/pagoexpress/initMall', { sessionId: `${token}${rut}`, transactionId: idTransaccion, storesTransaction: [{ amount: montoTotal, commerceCode: '597055555536', transactionId: ref }] }, { authorization: `Bearer ${auth.token}` })) as unknown as { token: string };
    // The card is approved on Webpay's form, and the browser never comes back.
    await fetch(`${sim}/webpayserver/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: init.token, card: '4051885600446623', expiry: '12/29', cvv: '123' }) });
    const deadline = Date.now() + 20_000;
    let status = '';
    while (Date.now() < deadline) {
      status = (await db.query('select status from transactions where id_transaccion = $1', [idTransaccion])).rows[0].status;
      if (status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe('paid');
    await new Promise((r) => setTimeout(r, 2_500));
    const vouchers = await db.query('select count(*)::int as n from vouchers where id_transaccion = $1', [idTransaccion]);
    const settlements = await db.query("select count(*)::int as n from audit_log where kind = 'pago.webpay' and detail->>'idTransaccion' = $1", [idTransaccion]);
    expect(vouchers.rows[0].n).toBe(1);
    expect(settlements.rows[0].n).toBe(1);
    const pending = await db.query("select i.monto_pendiente from instalments i join products p on p.id = i.product_id where p.numero_producto = '630014141414' order by i.numero_cuota");
    expect(pending.rows.map((r) => Number(r.monto_pendiente))).toEqual([0, 121_480, 121_480]);
  });

  it('applies an admin parameter change on both replicas at once', async () => {
    const mantencion = (a: Record<string, unknown>) =>
      (a.consultarParametrosResponse as { listaParametros: { parametro: { nombre: string; valor: string }[] } }).listaParametros.parametro.find(
        (p) => p.nombre === 'Mantencion',
      )?.valor;
    // Both replicas hold the parameters under a fresh lease when the change is made.
    const before = await Promise.all(
      [1, 2, 3, 4].map(() => call('/prod/parametro/consultar', { consultarParametrosRequest: { userId: 'x', canalLlamada: 'PGEX', tipo: 'PE' } })),
    );
    expect(before.map(mantencion)).toEqual(['0', '0', '0', '0']);
    await fetch(`${front}/admin/parametros/Mantencion`, { method: 'PUT', headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ valor: '1' }) });
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => call('/prod/parametro/consultar', { consultarParametrosRequest: { userId: 'x', canalLlamada: 'PGEX', tipo: 'PE' } })),
    );
    expect(answers.map(mantencion)).toEqual(['1', '1', '1', '1']);
  });
});
