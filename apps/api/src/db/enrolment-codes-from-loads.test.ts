import { eq } from 'drizzle-orm';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../test/support/scratch-database';
import { DATABASE_KINDS } from '../../test/support/test-app';
import { migrationsFolder, openDatabase, type Database } from './client';
import { auditLog, authoriserEnrolmentCodes, members } from './schema';

/** The migrations before 0025, in a folder of their own: a database as it was before loads lost enrolment codes. */
function migrationsBefore0025(): string {
  const folder = mkdtempSync(join(tmpdir(), 'pago-migrations-'));
  cpSync(migrationsFolder(), folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((e) => e.tag === '0025_mail_queue');
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
  return folder;
}

describe.each(DATABASE_KINDS)('migration 0025 on %s', (kind) => {
  it('voids the unused enrolment codes loads wrote, leaves the others, and says how many in the trail', async () => {
    const folder = migrationsBefore0025();
    const scratch = kind === 'postgres' ? await createPostgresDatabase(process.env.DATABASE_URL!) : null;
    let database: Database | null = null;
    try {
      database = await openDatabase(scratch ? { url: scratch.url } : { pgliteDir: 'memory://' });
      const db = database.db;
      if (kind === 'postgres') await migrateNodePg(db as unknown as NodePgDatabase, { migrationsFolder: folder });
      else await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: folder });

      const [member] = await db.insert(members).values({ rut: '19191919-K', name: 'Sofía Herrera Campos' }).returning({ id: members.id });
      const inAWeek = new Date(Date.now() + 7 * 86_400_000);
      const code = (codeHash: string, issuedBy: string, usedAt: Date | null) => ({ codeHash, memberId: member!.id, issuedBy, expiresAt: inAWeek, usedAt });
      await db.insert(authoriserEnrolmentCodes).values([code('planted', 'importacion', null), code('spent', 'importacion', new Date()), code('console', 'operador', null)]);

      await database.migrate();
      const expires = async (codeHash: string) => (await db.select().from(authoriserEnrolmentCodes).where(eq(authoriserEnrolmentCodes.codeHash, codeHash)))[0]!.expiresAt.getTime();
      expect(await expires('planted')).toBeLessThanOrEqual(Date.now());
      expect(await expires('spent')).toBe(inAWeek.getTime());
      expect(await expires('console')).toBe(inAWeek.getTime());
      expect((await db.select().from(auditLog).where(eq(auditLog.kind, 'autorizador.codigo.anulado'))).map((r) => r.detail)).toEqual([
        { emisor: 'importacion', codigos: 1, motivo: 'la carga ya no entrega códigos' },
      ]);
    } finally {
      await database?.close();
      await scratch?.remove();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
