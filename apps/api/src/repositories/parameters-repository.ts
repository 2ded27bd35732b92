import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { parameters } from '../db/schema';
import { TIPO_PARAMETRO } from '@pago/domain/channel';

export interface ParameterRow {
  nombre: string;
  valor: string;
  updatedAt: Date;
}

/*
 * The parameters are read on nearly every call, so that an operator's change applies on the next call on every
 * replica. The query is small, but building it and mapping its rows on every call cost more than the database's
 * work (docs/PERFORMANCE.md). So the statements are prepared once per database handle (PostgreSQL plans them once
 * per connection), and the rows are kept together with a digest of the whole table: one row of one column computed
 * from every parameter's name, value and date. Every call still asks the database for that digest and reuses the
 * kept rows only when it is unchanged. A change committed by any replica changes the digest, whatever its
 * timestamps or commit order, so the next call on every replica sees it.
 */
const digestOf = (db: DbOrTx) =>
  db
    .select({
      digest: sql<string>`md5(coalesce(string_agg(${parameters.nombre} || '=' || ${parameters.valor} || '@' || ${parameters.updatedAt}::text, ',' order by ${parameters.nombre}), ''))`.as('digest'),
    })
    .from(parameters)
    .where(eq(parameters.tipo, sql.placeholder('tipo')));

/** The rows with the table's digest beside each of them: one statement, so both come from the same snapshot. */
const listWithDigest = (db: DbOrTx) => {
  const digest = digestOf(db).as('d');
  return db
    .select({ nombre: parameters.nombre, valor: parameters.valor, updatedAt: parameters.updatedAt, digest: digest.digest })
    .from(parameters)
    .innerJoin(digest, sql`true`)
    .where(eq(parameters.tipo, sql.placeholder('tipo')))
    .orderBy(asc(parameters.nombre));
};

interface Kept {
  digest: ReturnType<ReturnType<typeof digestOf>['prepare']>;
  list: ReturnType<ReturnType<typeof listWithDigest>['prepare']>;
  last: { digest: string; rows: ParameterRow[] } | null;
}
const kept = new WeakMap<object, Kept>();
let statements = 0;

function keptFor(db: DbOrTx): Kept {
  let entry = kept.get(db);
  if (!entry) {
    const id = ++statements;
    entry = { digest: digestOf(db).prepare(`parameters_digest_${id}`), list: listWithDigest(db).prepare(`parameters_list_${id}`), last: null };
    kept.set(db, entry);
  }
  return entry;
}

const withoutDigest = ({ nombre, valor, updatedAt }: ParameterRow & { digest: string }): ParameterRow => ({ nombre, valor, updatedAt });

/** Every parameter of the member's screens (type 'PE') by name, as committed at the time of the call. */
export async function listParameters(db: DbOrTx): Promise<ParameterRow[]> {
  const params = { tipo: TIPO_PARAMETRO };
  // Inside a transaction: a plain read in the transaction's own view, never kept.
  if ('rollback' in db) return (await listWithDigest(db).execute(params)).map(withoutDigest);
  const entry = keptFor(db);
  if (entry.last) {
    const [row] = await entry.digest.execute(params);
    if (row?.digest === entry.last.digest) return entry.last.rows;
  }
  const rows = await entry.list.execute(params);
  entry.last = rows[0] ? { digest: rows[0].digest, rows: rows.map(withoutDigest) } : null;
  return entry.last?.rows ?? [];
}

/** Returns the previous value, or null when the parameter does not exist. */
export async function updateParameter(db: DbOrTx, nombre: string, valor: string): Promise<{ anterior: string } | null> {
  const previous = await db
    .select({ valor: parameters.valor })
    .from(parameters)
    .where(eq(parameters.nombre, nombre))
    .for('update');
  const row = previous[0];
  if (!row) return null;
  await db.update(parameters).set({ valor, updatedAt: sql`now()` }).where(eq(parameters.nombre, nombre));
  return { anterior: row.valor };
}
