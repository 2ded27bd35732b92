import type { PGlite } from '@electric-sql/pglite';
import { asc, eq, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../db/client';
import * as schema from '../db/schema';
import { seedParameters } from '../db/seed';
import { DATABASE_KINDS, openTestDatabase, type DatabaseKind } from '../test/test-app';
import { listParameters, updateParameter } from './parameters-repository';

/** A second handle on the same database, with a cache of its own: another replica. */
function anotherReplica(kind: DatabaseKind, db: Db): Db {
  const client = (db as unknown as { $client: unknown }).$client;
  return (kind === 'pglite' ? drizzlePglite(client as PGlite, { schema }) : drizzleNodePg(client as pg.Pool, { schema })) as unknown as Db;
}

const valueOf = async (db: Db, nombre: string) => (await listParameters(db)).find((p) => p.nombre === nombre)?.valor;

describe.each(DATABASE_KINDS)('listParameters on %s', (kind) => {
  let database: Database;
  let replicaA: Db;
  let replicaB: Db;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await seedParameters(database.db);
    replicaA = database.db;
    replicaB = anotherReplica(kind, database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  it('answers what a plain read answers, by name', async () => {
    const plain = await database.db
      .select({ nombre: schema.parameters.nombre, valor: schema.parameters.valor, updatedAt: schema.parameters.updatedAt })
      .from(schema.parameters)
      .orderBy(asc(schema.parameters.nombre));
    expect(await listParameters(replicaA)).toEqual(plain);
    expect(await listParameters(replicaA)).toEqual(plain);
  });

  it('keeps the rows while nothing changes', async () => {
    const first = await listParameters(replicaA);
    expect(await listParameters(replicaA)).toBe(first);
  });

  it("sees another replica's change on its very next call", async () => {
    expect(await valueOf(replicaA, 'Mantencion')).toBe('0');
    expect(await valueOf(replicaB, 'Mantencion')).toBe('0');
    await replicaB.transaction((tx) => updateParameter(tx, 'Mantencion', '1'));
    expect(await valueOf(replicaA, 'Mantencion')).toBe('1');
    await replicaA.transaction((tx) => updateParameter(tx, 'Mantencion', '0'));
    expect(await valueOf(replicaB, 'Mantencion')).toBe('0');
  });

  it('sees a change whose date goes backwards (a late commit, a manual fix), since the digest covers the values', async () => {
    expect(await valueOf(replicaA, 'CierreDiario')).toBe('0');
    await replicaB.execute(
      sql`update parameters set valor = '1', updated_at = updated_at - interval '1 day' where nombre = 'CierreDiario'`,
    );
    expect(await valueOf(replicaA, 'CierreDiario')).toBe('1');
    await replicaB.update(schema.parameters).set({ valor: '0' }).where(eq(schema.parameters.nombre, 'CierreDiario'));
    expect(await valueOf(replicaA, 'CierreDiario')).toBe('0');
  });

  it("reads a transaction's own view inside it, and never keeps it", async () => {
    await listParameters(replicaA);
    await expect(
      replicaA.transaction(async (tx) => {
        await updateParameter(tx, 'PC', '0');
        expect((await listParameters(tx)).find((p) => p.nombre === 'PC')?.valor).toBe('0');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await valueOf(replicaA, 'PC')).toBe('1');
  });
});
