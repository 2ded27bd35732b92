import { TIPO_PARAMETRO } from '@pago/domain/channel';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { parameters } from '../db/schema';

export interface ParameterRow {
  nombre: string;
  valor: string;
  updatedAt: Date;
}

/** The longest a replica serves the parameters it read: an operator's change applies everywhere within it. */
export const MAX_PARAMETERS_CACHE_MS = 1_000;

/** A real promise: a Drizzle query awaited twice would run twice. */
async function read(db: DbOrTx): Promise<ParameterRow[]> {
  return db
    .select({ nombre: parameters.nombre, valor: parameters.valor, updatedAt: parameters.updatedAt })
    .from(parameters)
    .where(eq(parameters.tipo, TIPO_PARAMETRO))
    .orderBy(asc(parameters.nombre));
}

interface Cached {
  /** When the read that produced `rows` began: what is served was committed before then at the latest. */
  readAt: number;
  rows: Promise<ParameterRow[]>;
}
const caches = new WeakMap<object, { ms: number; entry: Cached | null }>();

/** How long this database handle (a replica) serves what it read, at most MAX_PARAMETERS_CACHE_MS; 0 reads every time. */
export function cacheParameters(db: Db, ms: number): void {
  caches.set(db, { ms: Math.min(ms, MAX_PARAMETERS_CACHE_MS), entry: null });
}

/**
 * Every parameter of the member's screens (type 'PE') by name. Read on nearly every call, so a replica keeps what it
 * read for up to its cache time (calls arriving meanwhile share the read); inside a transaction, always read afresh.
 */
export function listParameters(db: DbOrTx): Promise<ParameterRow[]> {
  const cache = 'rollback' in db ? undefined : caches.get(db);
  if (!cache || cache.ms === 0) return read(db);
  const now = performance.now();
  if (!cache.entry || now - cache.entry.readAt >= cache.ms) {
    const entry: Cached = { readAt: now, rows: read(db) };
    cache.entry = entry;
    // A failed read is not kept: the next call reads again.
    entry.rows.catch(() => {
      if (cache.entry === entry) cache.entry = null;
    });
  }
  return cache.entry.rows;
}

/** Returns the previous value, or null when the parameter does not exist. */
export async function updateParameter(db: DbOrTx, nombre: string, valor: string): Promise<{ anterior: string } | null> {
  const [row] = await db.select({ valor: parameters.valor }).from(parameters).where(eq(parameters.nombre, nombre)).for('update');
  if (!row) return null;
  await db.update(parameters).set({ valor, updatedAt: sql`now()` }).where(eq(parameters.nombre, nombre));
  return { anterior: row.valor };
}
