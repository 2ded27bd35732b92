import { asc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { parameters } from '../db/schema';
import { TIPO_PARAMETRO } from '@pago/domain/channel';
import { createLease, type Lease } from './lease';

export interface ParameterRow {
  nombre: string;
  valor: string;
  updatedAt: Date;
}

/*
 * The parameters are read on nearly every call, and an operator's change must apply on the next call on every
 * replica. Reading them from the database on every call cost more than all the rest of call 1 (docs/PERFORMANCE.md),
 * so each replica keeps them under a lease:
 *
 * - A replica checks the table at most once per lease (`leaseMs`): it asks for a digest of the whole table (one row
 *   of one column computed from every parameter's name, value and date) and reads the rows again only when the
 *   digest changed. The lease is counted from before the check was sent, so whatever the replica serves under it was
 *   read from a snapshot taken after the lease began.
 * - An operator's change (services/parameters-service.ts) is answered only once a whole lease has passed since its
 *   commit. By then every replica's lease began after the commit, so each one's next call sees the change.
 *
 * The statements are prepared once per database handle (PostgreSQL plans them once per connection). The digest covers
 * the values, so a change is seen whatever its timestamps or commit order. A change made around the service (plain
 * SQL) is seen within one lease. With a lease of 0 every call checks the digest.
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

const withoutDigest = ({ nombre, valor, updatedAt }: ParameterRow & { digest: string }): ParameterRow => ({ nombre, valor, updatedAt });

interface Snapshot {
  digest: string;
  rows: ParameterRow[];
}

const kept = new WeakMap<object, Lease<Snapshot>>();
let statements = 0;

function keptFor(db: Db): Lease<Snapshot> {
  let lease = kept.get(db);
  if (!lease) {
    const id = ++statements;
    const digest = digestOf(db).prepare(`parameters_digest_${id}`);
    const list = listWithDigest(db).prepare(`parameters_list_${id}`);
    const params = { tipo: TIPO_PARAMETRO };
    lease = createLease<Snapshot>(async (previous) => {
      if (previous) {
        const [row] = await digest.execute(params);
        if (row?.digest === previous.digest) return previous;
      }
      const rows = await list.execute(params);
      return { digest: rows[0]?.digest ?? '', rows: rows.map(withoutDigest) };
    }, 0);
    kept.set(db, lease);
  }
  return lease;
}

/** How long this database handle (a replica) may serve the parameters without checking the table. */
export function leaseParameters(db: Db, leaseMs: number): void {
  keptFor(db).leaseMs = leaseMs;
}

/** Every parameter of the member's screens (type 'PE') by name, as committed at the time of the call. */
export async function listParameters(db: DbOrTx): Promise<ParameterRow[]> {
  // Inside a transaction: a plain read in the transaction's own view, never kept.
  if ('rollback' in db) return (await listWithDigest(db).execute({ tipo: TIPO_PARAMETRO })).map(withoutDigest);
  return (await keptFor(db).get()).rows;
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
