#!/usr/bin/env node
// A burst of call-4 logins with listings beside it (decision 015): BURST members (default 40) list and select an
// instalment one after another; then all of them send their password at once, and 10 ms later BURST other members
// list their products. Prints both latencies: a listing needs a pooled connection, which a login must not hold while
// argon2id checks its password.
//
//   npm run build && node bench/login-burst.mjs [path of the API's server.js, default apps/api/dist/server.js]
//
// Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a database of its own is created
// and dropped), BURST.

import { join } from 'node:path';
import { apiEnvironment, BENCH_INSTALMENT, ROOT, createDatabase, freePort, quantile, seedBenchMembers, sleep, solveCaptchas, startProcess, waitHealthy } from './lib.mjs';

const server = process.argv[2] ?? join(ROOT, 'apps/api/dist/server.js');
const BURST = Number(process.env.BURST ?? 40);

const database = await createDatabase(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const api = startProcess([server], apiEnvironment({ port, databaseUrl: database.url, logLevel: 'warn' }));
try {
  await waitHealthy(base, api, 'API', '/ready');
  const ruts = await seedBenchMembers(database.url, 2 * BURST, 12);
  const captchas = await solveCaptchas(base, 3 * BURST);
  const post = async (path, body, headers = {}) => {
    const started = performance.now();
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { answer: await res.json(), ms: performance.now() - started };
  };
  const list = (rut) => post('/prod/producto/listar', { listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } }, { authorization: captchas.pop() });

  const sessions = [];
  for (const rut of ruts.slice(0, BURST)) {
    const { token, listaProductos } = (await list(rut)).answer.listarDetalleProductosResponse;
    const credit = listaProductos.find((p) => p.tipoFamiliaProducto === 'PC');
    const oldest = credit.listaDetalleProductos[0];
    const detalleProducto = [{ numeroCuota: String(oldest.numeroCuota), valorAPagar: BENCH_INSTALMENT, fechaVencimiento: oldest.fechaVencimiento }];
    const producto = [{ numeroProducto: credit.numeroProducto, tipoFamiliaProducto: 'PC', nombreFamiliaProducto: credit.nombreFamiliaProducto, detalleProducto }];
    await post('/prod/producto/seleccionar', { seleccionarProductoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, producto } });
    sessions.push({ rut, token });
  }
  await sleep(500);

  const started = performance.now();
  const logins = sessions.map(({ rut, token }) => {
    const [rutNumber, dv] = rut.split('-');
    const autenticacion = { rut: rutNumber, dv, clave: '1234' };
    return post('/prod/pago/producto/cuentavista/autentica', { autenticaConsultaFactoresRequest: { userId: rut, canalLlamada: 'PGEX', token, autenticacion } }, { authorization: captchas.pop() });
  });
  await sleep(10);
  const listings = ruts.slice(BURST).map((rut) => list(rut));
  const loginsDone = await Promise.all(logins);
  const listingsDone = await Promise.all(listings);
  const burstMs = performance.now() - started;

  const loggedIn = loginsDone.filter((l) => l.answer.autenticaConsultaFactoresResponse?.codigo === '200').length;
  const listed = listingsDone.filter((l) => l.answer.listarDetalleProductosResponse?.token).length;
  const sorted = (runs) => runs.map((r) => r.ms).sort((a, b) => a - b);
  const [loginMs, listingMs] = [sorted(loginsDone), sorted(listingsDone)];
  console.log(
    `${BURST} logins (${loggedIn} answered 200): p50 ${quantile(loginMs, 0.5)} ms, max ${quantile(loginMs, 1)} ms; ` +
      `${BURST} listings beside them (${listed} answered): p50 ${quantile(listingMs, 0.5)} ms, p90 ${quantile(listingMs, 0.9)} ms, max ${quantile(listingMs, 1)} ms; ` +
      `the whole burst ${Math.round(burstMs)} ms`,
  );
  // A burst whose calls were refused measured something else.
  if (loggedIn < BURST || listed < BURST) process.exitCode = 1;
} finally {
  await api.stop();
  await database.drop();
}
