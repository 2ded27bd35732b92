import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrailChangeable, openDatabase, type Database } from '../../src/db/client';
import { auditLog } from '../../src/db/schema';
import { appendAudit, pruneBrowserReports } from '../../src/repositories/audit-repository';
import { postgresBinaries, startPrivatePostgres, type PrivatePostgres } from './postgres-server';

// The audit trail is evidence (decision 042): the API's own role inserts into it and nothing more; the schema's owner
// migrates. Roles are made on a private server: the machine's shared one is not this test's to change.

const binaries = postgresBinaries();
const skipReason = !process.env.DATABASE_URL ? 'DATABASE_URL is not set' : 'missing' in binaries ? binaries.missing : null;

describe.skipIf(skipReason !== null)(`the API's database role only inserts into the audit trail${skipReason ? ` — skipped: ${skipReason}` : ''}`, () => {
  let server: PrivatePostgres;
  let api: Database;
  let owner: Database;
  const urlOf = (user: string) => `postgres://${user}@127.0.0.1:${server.port}/pago`;

  beforeAll(async () => {
    server = await startPrivatePostgres((binaries as { bin: string }).bin);
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      for (const statement of ['create role pago_owner login', 'create role pago_api login', 'create database pago owner pago_owner']) await admin.query(statement);
    } finally {
      await admin.end();
    }
    api = await openDatabase({ url: urlOf('pago_api'), ownerUrl: urlOf('pago_owner') });
    await api.migrate();
    owner = await openDatabase({ url: urlOf('pago_owner') });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await owner?.close();
    await server?.remove();
  });

  it('lets the API insert audit lines and do its other work, but not change, delete or empty them', async () => {
    await appendAudit(api.db, { kind: 'listar.aviso', detail: { n: 1 } });
    await appendAudit(api.db, { kind: 'navegador.log', detail: {} });
    const failure = (statement: ReturnType<typeof sql>) => api.db.execute(statement).then(
      () => 'allowed',
      (error: { cause?: { message?: string } }) => error.cause?.message ?? 'refused',
    );
    expect(await failure(sql`update audit_log set kind = 'otra'`)).toMatch(/permission denied/);
    expect(await failure(sql`delete from audit_log`)).toMatch(/permission denied/);
    expect(await failure(sql`truncate audit_log`)).toMatch(/permission denied/);
    // Its other tables are its own to read and write.
    expect(await failure(sql`update parameters set valor = valor where false`)).toBe('allowed');
    expect(await failure(sql`delete from outbox where false`)).toBe('allowed');
    // Old browser reports still go, through the owner's function.
    await owner.db.execute(sql`alter table audit_log disable trigger audit_log_no_update`);
    await owner.db.update(auditLog).set({ at: sql`now() - interval '40 days'` }).where(sql`${auditLog.kind} = 'navegador.log'`);
    await owner.db.execute(sql`alter table audit_log enable trigger audit_log_no_update`);
    expect(await pruneBrowserReports(api.db, 30)).toBe(1);
    expect((await api.db.select().from(auditLog)).map((l) => l.kind)).toEqual(['listar.aviso']);
  });

  it('tells the boot check apart: the API’s role cannot change the trail, the owner can', async () => {
    expect(await auditTrailChangeable(api.db)).toBe(false);
    expect(await auditTrailChangeable(owner.db)).toBe(true);
    // Migrating with the owner as both roles grants and revokes nothing: the owner still counts as able to change it.
    const alone = await openDatabase({ url: urlOf('pago_owner'), ownerUrl: urlOf('pago_owner') });
    try {
      await alone.migrate();
      expect(await auditTrailChangeable(alone.db)).toBe(true);
    } finally {
      await alone.close();
    }
  });
});
