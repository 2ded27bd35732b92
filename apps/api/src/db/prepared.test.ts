import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type ScratchDatabase } from '../test/scratch-database';
import { DATABASE_KINDS, openTestDatabase } from '../test/test-app';
import { inTransaction, openDatabase, type Database, type Tx } from './client';
import { inOneStatement } from './one-statement';
import { preparedPerHandle } from './prepared';
import { parameters } from './schema';
import { seedParameters } from './seed';

const setValue = preparedPerHandle('test_set_parameter', (db) =>
  db
    .update(parameters)
    .set({ valor: sql`${sql.placeholder('valor')}` })
    .where(eq(parameters.nombre, sql.placeholder('nombre'))),
);
const valueOf = preparedPerHandle('test_parameter_value', (db) =>
  db.select({ valor: parameters.valor }).from(parameters).where(eq(parameters.nombre, sql.placeholder('nombre'))),
);

describe.each(DATABASE_KINDS)('statements prepared inside inTransaction on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await seedParameters(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  const committed = async () => (await valueOf(database.db).execute({ nombre: 'Mantencion' }))[0]?.valor;

  it('run inside the transaction: they see its writes, and a rollback undoes theirs', async () => {
    expect(await committed()).toBe('0');
    const failure = new Error('rolled back on purpose');
    await expect(
      inTransaction(database.db, async (tx) => {
        await setValue(tx).execute({ valor: '1', nombre: 'Mantencion' });
        expect((await valueOf(tx).execute({ nombre: 'Mantencion' }))[0]?.valor).toBe('1');
        // Outside the transaction, on another pooled connection, the write is not yet visible. (PGlite has one
        // connection, which the transaction holds.)
        if (kind === 'postgres') expect(await committed()).toBe('0');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await committed()).toBe('0');

    await inTransaction(database.db, (tx) => setValue(tx).execute({ valor: '1', nombre: 'Mantencion' }));
    expect(await committed()).toBe('1');
    await inTransaction(database.db, (tx) => setValue(tx).execute({ valor: '0', nombre: 'Mantencion' }));
  });

  it('a savepoint inside the transaction builds them for the call, and rolls back alone', async () => {
    await inTransaction(database.db, async (tx) => {
      await setValue(tx).execute({ valor: '1', nombre: 'CierreDiario' });
      await expect(
        tx.transaction(async (savepoint) => {
          await setValue(savepoint).execute({ valor: '1', nombre: 'Mantencion' });
          throw new Error('savepoint rolled back');
        }),
      ).rejects.toThrow('savepoint rolled back');
      expect((await valueOf(tx).execute({ nombre: 'Mantencion' }))[0]?.valor).toBe('0');
    });
    expect(await committed()).toBe('0');
    expect((await valueOf(database.db).execute({ nombre: 'CierreDiario' }))[0]?.valor).toBe('1');
    await inTransaction(database.db, (tx) => setValue(tx).execute({ valor: '0', nombre: 'CierreDiario' }));
  });
});

describe.runIf(process.env.DATABASE_URL)('statements prepared inside inTransaction on one PostgreSQL connection', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  beforeAll(async () => {
    scratch = await createPostgresDatabase(process.env.DATABASE_URL!);
    database = await openDatabase({ url: scratch.url, poolMax: 1 });
    await database.migrate();
    await seedParameters(database.db);
  });
  afterAll(async () => {
    await database.close();
    await scratch.remove();
  });

  const preparedHere = async (tx: Tx) => {
    const result = (await tx.execute(sql`select name from pg_prepared_statements where name like 'test_parameter_value_%'`)) as unknown as { rows: { name: string }[] };
    return result.rows.map((r) => r.name);
  };

  it('are parsed once per connection and reused by its later transactions', async () => {
    const first = await inTransaction(database.db, async (tx) => {
      await valueOf(tx).execute({ nombre: 'Mantencion' });
      return preparedHere(tx);
    });
    expect(first).toHaveLength(1);
    const second = await inTransaction(database.db, async (tx) => {
      expect((await valueOf(tx).execute({ nombre: 'sessionTimeOut' }))[0]?.valor).toBe('5');
      return preparedHere(tx);
    });
    expect(second).toEqual(first);
  });

  it("run inOneStatement's writes as a named statement on the transaction's connection, and roll them back with it", async () => {
    const both = (db: Database['db'] | Tx, valor: string) =>
      inOneStatement(
        db,
        [db.update(parameters).set({ valor }).where(eq(parameters.nombre, 'Mantencion'))],
        db.update(parameters).set({ valor }).where(eq(parameters.nombre, 'CierreDiario')),
      );
    const values = async () =>
      Object.fromEntries((await database.db.select().from(parameters)).map((p) => [p.nombre, p.valor]));
    const failure = new Error('rolled back on purpose');
    await expect(
      inTransaction(database.db, async (tx) => {
        await both(tx, '1');
        const result = (await tx.execute(sql`select statement from pg_prepared_statements where name like 'one_statement_%'`)) as unknown as {
          rows: { statement: string }[];
        };
        expect(result.rows.map((r) => r.statement)).toEqual([expect.stringMatching(/^with "w0" as \(update "parameters"/)]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await values()).toMatchObject({ Mantencion: '0', CierreDiario: '0' });

    // On the pool, outside a transaction, the same text runs under the same name, and commits on its own.
    await both(database.db, '1');
    expect(await values()).toMatchObject({ Mantencion: '1', CierreDiario: '1' });
    await both(database.db, '0');
  });
});
