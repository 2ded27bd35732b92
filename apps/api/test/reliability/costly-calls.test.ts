import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, transactions } from '../../src/db/schema';
import { pruneBrowserReports } from '../../src/repositories/audit-repository';
import { DATABASE_KINDS, startTestApp, type TestApp } from '../support/test-app';
import { codeOf, listar, oldestOf, payOwnAccount, post, seleccionar } from './flows';
import { injectTarget, type Target } from './http';
import { recordFigures } from './settings';

// Calls that make the server work (a PDF, an e-mail, a stored selection, an audit line) are bounded per session
// and per client, and what browsers report does not stay for ever.

const RUT = '11111111-1';
const LIMITS = { pdfPerSession: 3, pdfPerIp: 5, selectPerSession: 3, selectPerIp: 5, mailPerSession: 3, mailPerIp: 5, logPerIp: 4 };

describe.each(DATABASE_KINDS)('costly calls are bounded (%s)', (kind) => {
  let t: TestApp;
  let attacks = 0;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { altchaCounter: { min: 10, max: 50 } }, rateLimits: LIMITS });
  });
  afterAll(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: attacks });
    await t?.close();
  });
  const from = (ip: string): Target => ({ name: ip, request: (r) => injectTarget(t.app, ip, ip).request(r) });
  const statusesOf = async (n: number, call: (i: number) => Promise<{ status: number }>) => {
    const statuses = [];
    for (let i = 0; i < n; i++) statuses.push((await call(i)).status);
    return statuses;
  };

  it('limits selections per session and per client, storing nothing once refused', async () => {
    attacks++;
    const client = from('10.7.0.1');
    const a = await listar(client, RUT);
    const pc = oldestOf(a.productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1);
    const select = (token: string, target = client) => post(target, '/prod/producto/seleccionar', { seleccionarProductoRequest: { userId: RUT, canalLlamada: 'PGEX', token, rut: RUT, producto: [pc] } });
    expect(await statusesOf(4, () => select(a.token))).toEqual([200, 200, 200, 429]);
    // A new session from the same client has what is left of the client's five (refused attempts count too).
    const b = await listar(client, RUT);
    const pcB = oldestOf(b.productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1);
    const selectB = () => post(client, '/prod/producto/seleccionar', { seleccionarProductoRequest: { userId: RUT, canalLlamada: 'PGEX', token: b.token, rut: RUT, producto: [pcB] } });
    expect((await selectB()).status).toBe(200);
    expect(codeOf(await selectB(), 'seleccionarProductoResponse')).toBe('514');
    expect(await t.database.db.$count(transactions)).toBe(4);
  });

  it('limits voucher PDFs and e-mails per session and per client', async () => {
    attacks++;
    const client = from('10.7.1.1');
    const s = await listar(client, RUT);
    const pm = oldestOf(s.productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1);
    const { idTransaccion } = await seleccionar(client, s.token, RUT, [pm]);
    await payOwnAccount(client, { token: s.token, memberRut: RUT, payerRut: RUT, clave: '1234' });
    const pdf = (target: Target) => post(target, '/api/comprobante/pdf', { token: s.token, idTransaccion });
    expect(await statusesOf(4, () => pdf(client))).toEqual([200, 200, 200, 429]);
    // Another client asking for the same session's PDF meets the session's limit too.
    expect((await pdf(from('10.7.1.2'))).status).toBe(429);

    const mail = (target: Target) =>
      post(
        target,
        '/prod/notificaciones/enviar',
        { enviarComprobantePagoRequest: { userId: RUT, canalLlamada: 'PGEX', token: s.token, rut: RUT, correo: 'alguien@example.cl' } },
        { authorization: `Basic ${Buffer.from(`${RUT}:${s.token}`).toString('base64')}` },
      );
    expect(await statusesOf(4, () => mail(from('10.7.2.1')))).toEqual([200, 200, 200, 429]);
  });

  it('limits call 11 per client, refuses an over-long detail, and prunes browser reports but never server events', async () => {
    attacks++;
    const client = from('10.7.3.1');
    const report = (detalleLog: string) => post(client, '/prod/auditoria/guardarlog', { guardarLogRequest: { idPlataforma: 'web', origenLlamada: 'a', destinoLlamada: 'b', nivelLog: 'INFO', detalleLog, rut: '' } });
    const before = await t.database.db.$count(auditLog);
    expect((await report('x'.repeat(1001))).status).toBe(400);
    expect(await t.database.db.$count(auditLog)).toBe(before);
    expect(await statusesOf(5, () => report('x'))).toEqual([200, 200, 200, 200, 429]);
    expect(await t.database.db.$count(auditLog, eq(auditLog.kind, 'navegador.log'))).toBe(4);

    // A month and a day later: the browser's lines go, the server's stay.
    const server = await t.database.db.$count(auditLog, sql`${auditLog.kind} <> 'navegador.log'`);
    expect(server).toBeGreaterThan(0);
    await t.database.db.execute(sql`alter table audit_log disable trigger audit_log_no_update`);
    await t.database.db.execute(sql`update audit_log set at = at - interval '31 days'`);
    await t.database.db.execute(sql`alter table audit_log enable trigger audit_log_no_update`);
    expect(await pruneBrowserReports(t.database.db, 30)).toBe(4);
    expect(await t.database.db.$count(auditLog, eq(auditLog.kind, 'navegador.log'))).toBe(0);
    expect(await t.database.db.$count(auditLog)).toBe(server);
    // Nobody removes a server event, not even the application.
    await expect(t.database.db.execute(sql`delete from audit_log where kind <> 'navegador.log'`)).rejects.toThrow();
    expect(await t.database.db.$count(auditLog)).toBe(server);
  });
});
