import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type ScratchDatabase } from '../../test/support/scratch-database';
import { openDatabase, type Database } from './client';
import { members } from './schema';

const baseUrl = process.env.DATABASE_URL;

// One pooled connection, so every query below runs on the same one.
describe.skipIf(!baseUrl)('statements prepared once per connection on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  beforeAll(async () => {
    scratch = await createPostgresDatabase(baseUrl!);
    database = await openDatabase({ url: scratch.url, poolMax: 1 });
    await database.migrate();
    await database.db.insert(members).values({ rut: '11111111-1', name: 'Uno' });
  });
  afterAll(async () => {
    await database.close();
    await scratch.remove();
  });

  const preparedOnTheConnection = async () => {
    const result = (await database.db.execute(sql`select statement from pg_prepared_statements`)) as unknown as { rows: { statement: string }[] };
    return result.rows.map((row) => row.statement);
  };
  const nameOf = (rut: string) => database.db.select({ name: members.name }).from(members).where(eq(members.rut, rut));

  it('prepares a parameterised statement on its first call and reuses it after', async () => {
    expect(await nameOf('11111111-1')).toEqual([{ name: 'Uno' }]);
    expect(await nameOf('22222222-2')).toEqual([]);
    const prepared = (await preparedOnTheConnection()).filter((text) => text.includes('"members"."rut" = $1'));
    expect(prepared).toHaveLength(1);
  });

  it('gives two statements two names: each answers its own result on the same connection', async () => {
    const one = (await database.db.execute(sql`select ${1}::int + 1 as sum`)) as unknown as { rows: { sum: number }[] };
    const two = (await database.db.execute(sql`select ${1}::int + 2 as sum`)) as unknown as { rows: { sum: number }[] };
    const oneAgain = (await database.db.execute(sql`select ${1}::int + 1 as sum`)) as unknown as { rows: { sum: number }[] };
    expect([one.rows[0]!.sum, two.rows[0]!.sum, oneAgain.rows[0]!.sum]).toEqual([2, 3, 2]);
  });

  it('keeps working when a migration adds a column to a table a prepared statement reads', async () => {
    expect(await nameOf('11111111-1')).toEqual([{ name: 'Uno' }]);
    await database.db.execute(sql`alter table members add column nickname text`);
    expect(await nameOf('11111111-1')).toEqual([{ name: 'Uno' }]);
    await database.db.execute(sql`alter table members drop column nickname`);
    expect(await nameOf('11111111-1')).toEqual([{ name: 'Uno' }]);
  });
});
