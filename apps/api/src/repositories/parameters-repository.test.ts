import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../db/client';
import * as schema from '../db/schema';
import { seedParameters } from '../db/seed';
import { createParametersService } from '../services/parameters-service';
import { anotherReplica, DATABASE_KINDS, openTestDatabase } from '../../test/support/test-app';
import { cacheParameters, listParameters, updateParameter } from './parameters-repository';

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

  it("sees another replica's change on its very next call", async () => {
    expect(await valueOf(replicaA, 'Mantencion')).toBe('0');
    expect(await valueOf(replicaB, 'Mantencion')).toBe('0');
    await replicaB.transaction((tx) => updateParameter(tx, 'Mantencion', '1'));
    expect(await valueOf(replicaA, 'Mantencion')).toBe('1');
    await replicaA.transaction((tx) => updateParameter(tx, 'Mantencion', '0'));
    expect(await valueOf(replicaB, 'Mantencion')).toBe('0');
  });

  describe('under a cache', () => {
    const CACHE_MS = 300;
    let cachedA: Db;
    let cachedB: Db;
    beforeAll(() => {
      cachedA = anotherReplica(kind, database.db);
      cachedB = anotherReplica(kind, database.db);
    });

    it('serves from memory within the cache time, and reads the table again once it ends', async () => {
      cacheParameters(cachedA, CACHE_MS);
      expect(await valueOf(cachedA, 'pagoWebPayHI')).toBe('0');
      // Around the service (plain SQL): nothing waits for the cache, so the replica may serve the old value until it
      // ends; that it does proves the calls are not reaching the database.
      await database.db.update(schema.parameters).set({ valor: '1' }).where(eq(schema.parameters.nombre, 'pagoWebPayHI'));
      expect(await valueOf(cachedA, 'pagoWebPayHI')).toBe('0');
      await new Promise((resolve) => setTimeout(resolve, CACHE_MS + 20));
      expect(await valueOf(cachedA, 'pagoWebPayHI')).toBe('1');
      await database.db.update(schema.parameters).set({ valor: '0' }).where(eq(schema.parameters.nombre, 'pagoWebPayHI'));
    });

    it("answers an operator's change only when every replica's next call applies it, even while calls keep coming", async () => {
      const serviceB = createParametersService(cachedB, { cacheMs: CACHE_MS });
      cacheParameters(cachedA, CACHE_MS);
      for (const valor of ['1', '0', '1', '0']) {
        expect(await valueOf(cachedA, 'Mantencion')).not.toBe(valor);
        // Replica A keeps serving (and reading again, and sharing its reads between calls) while B's change commits.
        let calling = true;
        const traffic = (async () => {
          // A call served from memory settles without I/O: yield to the event loop between calls, as requests do.
          while (calling) {
            await listParameters(cachedA);
            await new Promise((resolve) => setImmediate(resolve));
          }
        })();
        const started = performance.now();
        expect(await serviceB.update('Mantencion', valor, 'test')).toMatchObject({ ok: true, valor });
        expect(performance.now() - started).toBeGreaterThanOrEqual(CACHE_MS);
        expect(await valueOf(cachedA, 'Mantencion')).toBe(valor);
        expect(await valueOf(cachedB, 'Mantencion')).toBe(valor);
        calling = false;
        await traffic;
      }
    });

    it('lets calls that arrive together share one read', async () => {
      cacheParameters(cachedA, CACHE_MS);
      await new Promise((resolve) => setTimeout(resolve, CACHE_MS + 20));
      const answers = await Promise.all(Array.from({ length: 20 }, () => listParameters(cachedA)));
      expect(new Set(answers).size).toBe(1);
    });
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
