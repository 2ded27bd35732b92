import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, machineTokens, operatorRoles } from '../db/schema';
import { asOperator, operatorSession } from '../../test/support/operator-session';
import { createPostgresDatabase } from '../../test/support/scratch-database';
import { startTestApp, type TestApp } from '../../test/support/test-app';
import { openDatabase } from '../db/client';

const run = promisify(execFile);
const ADMIN = fileURLToPath(new URL('../cli/admin.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));

describe('machine tokens: named, scoped, revocable, stored hashed', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A token an operator asks for, approved by an administrator: its secret. */
  async function approvedToken(usuario: string, nombre: string, alcances: string[]): Promise<{ id: string; secreto: string }> {
    const asking = await operatorSession(t.app.operator, usuario);
    const issued = await t.app.operator.inject({ method: 'POST', url: '/admin/tokens', headers: asOperator(asking), payload: { nombre, alcances } });
    expect(issued.statusCode, issued.body).toBe(202);
    const { token, secreto, cambio } = issued.json().consolaResponse as { token: { id: string }; secreto: string; cambio: { id: string } };
    const admin = await operatorSession(t.app.operator, usuario === 'admin' ? 'admin2' : 'admin');
    expect((await t.app.operator.inject({ method: 'POST', url: `/admin/cambios/${cambio.id}/aprobar`, headers: asOperator(admin) })).statusCode).toBe(200);
    return { id: token.id, secreto };
  }

  it('lets an operator ask for a token for the nightly load, which does that and nothing else once approved, until revoked', async () => {
    const admin = await operatorSession(t.app.operator, 'admin');
    const operaciones = await operatorSession(t.app.operator, 'operaciones');
    const issued = await t.app.operator.inject({ method: 'POST', url: '/admin/tokens', headers: asOperator(operaciones), payload: { nombre: 'carga-nocturna', alcances: ['importacion'] } });
    expect(issued.statusCode).toBe(202);
    const { token, secreto, cambio } = issued.json().consolaResponse as { token: { id: string; nombre: string; alcances: string[]; creadoPor: string }; secreto: string; cambio: { id: string } };
    expect(token).toMatchObject({ nombre: 'carga-nocturna', alcances: ['importacion'], creadoPor: 'Óscar Operaciones', aprobado: null });
    // Waiting for a second person, it opens nothing.
    expect((await t.app.operator.inject({ method: 'GET', url: '/admin/parametros', headers: { authorization: `Bearer ${secreto}` } })).statusCode).toBe(401);
    expect((await t.app.operator.inject({ method: 'POST', url: `/admin/cambios/${cambio.id}/aprobar`, headers: asOperator(admin) })).statusCode).toBe(200);
    expect(secreto.length).toBeGreaterThanOrEqual(40);
    // Only the hash is kept.
    const [row] = await t.database.db.select().from(machineTokens).where(eq(machineTokens.name, 'carga-nocturna'));
    expect(row?.tokenHash).not.toBe(secreto);
    expect(JSON.stringify(row)).not.toContain(secreto);
    // A second token of the same name is refused.
    expect((await t.app.operator.inject({ method: 'POST', url: '/admin/tokens', headers: asOperator(operaciones), payload: { nombre: 'carga-nocturna', alcances: ['importacion'] } })).statusCode).toBe(409);

    const bearer = { authorization: `Bearer ${secreto}` };
    const load = await t.app.operator.inject({ method: 'POST', url: '/admin/importacion', headers: bearer, payload: { corte: new Date().toISOString(), socios: [{ rut: 'no es un rut' }] } });
    expect(load.statusCode).toBe(200);
    expect(load.json().operacionesResponse.rechazados).toHaveLength(1);
    expect((await t.app.operator.inject({ method: 'GET', url: '/admin/parametros', headers: bearer })).statusCode).toBe(403);
    // What the load wrote names the token that sent it.
    const lines = await t.database.db.select().from(auditLog).where(sql`${auditLog.detail}->>'operador' = 'token carga-nocturna (Óscar Operaciones)'`);
    expect(lines.length).toBeGreaterThan(0);

    const revoked = await t.app.operator.inject({ method: 'POST', url: `/admin/tokens/${token.id}/revocar`, headers: asOperator(admin) });
    expect(revoked.statusCode).toBe(200);
    expect((await t.app.operator.inject({ method: 'POST', url: '/admin/importacion', headers: bearer, payload: { corte: new Date().toISOString(), socios: [{}] } })).statusCode).toBe(401);
    expect((await t.app.operator.inject({ method: 'POST', url: `/admin/tokens/${token.id}/revocar`, headers: asOperator(admin) })).statusCode).toBe(404);
    const listed = await t.app.operator.inject({ method: 'GET', url: '/admin/tokens', headers: { cookie: admin.cookie } });
    expect(listed.json().consolaResponse.tokens).toEqual([expect.objectContaining({ nombre: 'carga-nocturna', aprobadoPor: 'Alberto Admin', revocado: expect.any(String), ultimoUso: expect.any(String) })]);
  });

  it('runs the CLI with an issued token (MACHINE_TOKEN), within its scopes', async () => {
    const { secreto } = await approvedToken('operaciones', 'cli-lectura', ['parametros.ver']);
    const cli = (...args: string[]) => run(TSX, [ADMIN, ...args], { env: { ...process.env, API_URL: url, MACHINE_TOKEN: secreto, ADMIN_TOKEN: '' } });
    expect((await cli('params', 'list')).stdout).toContain('Mantencion=0');
    await expect(cli('params', 'set', 'Mantencion', '1')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('403') });
  });

  it.skipIf(!process.env.DATABASE_URL)('issues the first token straight into the database with --database, without the API or a token', async () => {
    const scratch = await createPostgresDatabase(process.env.DATABASE_URL!);
    try {
      const database = await openDatabase({ url: scratch.url });
      await database.migrate();
      await database.close();
      const cli = (...args: string[]) => run(TSX, [ADMIN, ...args], { env: { ...process.env, DATABASE_URL: scratch.url, API_URL: 'http://127.0.0.1:9', ADMIN_TOKEN: '', MACHINE_TOKEN: '' } });
      const issued = await cli('tokens', 'issue', 'primer-token', 'tokens.gestionar,operadores.roles', '--database');
      const secreto = /^primer-token \([0-9a-f-]{36}\): (pot_\S+)$/.exec(issued.stdout.trim())?.[1];
      expect(secreto, issued.stdout).toBeDefined();
      await expect(cli('tokens', 'issue', 'primer-token', 'importacion', '--database')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('exists') });
      await expect(cli('tokens', 'issue', 'otro', 'todo', '--database')).rejects.toMatchObject({ code: 2 });
      // The first administrators of a provider that carries no roles, written the same way.
      expect((await cli('operators', 'roles', 'primera-admin', 'admin', '--database')).stdout.trim()).toBe('primera-admin: admin');
      await expect(cli('operators', 'roles', 'otro', 'dios', '--database')).rejects.toMatchObject({ code: 2 });
      const reading = await openDatabase({ url: scratch.url });
      expect(await reading.db.select().from(operatorRoles)).toEqual([expect.objectContaining({ subject: 'primera-admin', roles: ['admin'], updatedBy: 'línea de comandos (base de datos)' })]);
      const rows = await reading.db.select().from(machineTokens);
      const [line] = await reading.db.select().from(auditLog).where(eq(auditLog.kind, 'token.emitido'));
      await reading.close();
      expect(rows).toEqual([expect.objectContaining({ name: 'primer-token', scopes: ['tokens.gestionar', 'operadores.roles'], createdBy: 'línea de comandos (base de datos)', approvedAt: expect.any(Date) })]);
      expect(JSON.stringify(rows)).not.toContain(secreto);
      expect(line?.detail).toMatchObject({ token: 'primer-token', operador: 'línea de comandos (base de datos)' });
    } finally {
      await scratch.remove();
    }
  });
});
