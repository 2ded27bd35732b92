import { verify } from '@node-rs/argon2';
import { businessToday } from '@pago/domain/business-time';
import { daysBetweenWire } from '@pago/domain/dates';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, openTestDatabase } from '../../test/support/test-app';
import type { Database } from './client';
import { DEMO_MEMBERS } from '@pago/domain/demo-members';
import { seedDemoMembers, seedParameters } from './seed';
import { accounts, auditLog, coordinateCards, instalments, members, parameters, products } from './schema';

const counts = async (db: Database['db']) => ({
  members: (await db.select().from(members)).length,
  products: (await db.select().from(products)).length,
  instalments: (await db.select().from(instalments)).length,
  parameters: (await db.select().from(parameters)).length,
});

describe.each(DATABASE_KINDS)('demo seed on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await seedParameters(database.db);
    await seedDemoMembers(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  it('holds exactly the demo members, and loading again changes nothing', async () => {
    const first = await counts(database.db);
    expect(first.members).toBe(DEMO_MEMBERS.length);
    expect((await database.db.select({ rut: members.rut }).from(members)).map((m) => m.rut).sort()).toEqual(
      DEMO_MEMBERS.map((m) => m.rut).sort(),
    );
    await seedParameters(database.db);
    expect(await seedDemoMembers(database.db)).toBe(0);
    expect(await counts(database.db)).toEqual(first);
  });

  it('keeps an operator’s parameter change across a reload', async () => {
    await database.db.update(parameters).set({ valor: '9' }).where(eq(parameters.nombre, 'sessionTimeOut'));
    await seedParameters(database.db);
    const [row] = await database.db.select().from(parameters).where(eq(parameters.nombre, 'sessionTimeOut'));
    expect(row?.valor).toBe('9');
  });

  it('gives 11.111.111-1 the demo coordinate card and a verifiable password', async () => {
    const [member] = await database.db.select().from(members).where(eq(members.rut, '11111111-1'));
    expect(member?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verify(member!.passwordHash!, '1234')).toBe(true);
    expect(await verify(member!.passwordHash!, '12345')).toBe(false);
    const [card] = await database.db.select().from(coordinateCards).where(eq(coordinateCards.memberId, member!.id));
    expect(card?.cells.A1).toBe('24');
    expect(card?.cells.J5).toBe('39');
    expect(Object.keys(card!.cells)).toHaveLength(50);
    const [account] = await database.db.select().from(accounts).where(eq(accounts.memberId, member!.id));
    expect(account?.saldo).toBe(5_000_000);
  });

  it('lays the overdue mortgage of 9.876.543-3 out 45 days past due', async () => {
    const rows = await database.db
      .select({ cuota: instalments.numeroCuota, due: instalments.fechaVencimiento })
      .from(instalments)
      .innerJoin(products, eq(products.id, instalments.productId))
      .where(eq(products.numeroProducto, '520098765432'));
    const today = businessToday(new Date());
    const overdue = rows.map((r) => daysBetweenWire(r.due.replaceAll('-', ''), today)).sort((a, b) => b - a);
    expect(overdue).toEqual([75, 45, -15, -45]);
  });

  it('blocks 13.579.246-2’s password and attaches the list notices', async () => {
    const rows = await database.db.select().from(members);
    const byRut = Object.fromEntries(rows.map((m) => [m.rut, m]));
    expect(byRut['13579246-2']?.passwordBlockedAt).toBeInstanceOf(Date);
    expect(byRut['18765432-7']?.listNoticeCode).toBe('47501');
    expect(byRut['10203040-0']?.listNoticeCode).toBe('465');
    expect(byRut['7654321-6']?.passwordHash).toBeNull();
  });

  it('keeps the audit trail append-only', async () => {
    await database.db.insert(auditLog).values({ kind: 'prueba', detail: {} });
    await expect(database.db.execute(sql`update audit_log set kind = 'otra'`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(database.db.execute(sql`truncate audit_log`)).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringContaining("append-only") }) });
    expect((await database.db.select().from(auditLog)).map((r) => r.kind)).toContain('prueba');
  });
});
