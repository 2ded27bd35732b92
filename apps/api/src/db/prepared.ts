import { handleOf, type DbOrTx } from './client';

interface Executable<R> {
  execute(placeholderValues?: Record<string, unknown>): Promise<R>;
}

/** A Drizzle query with `sql.placeholder` values: it can run as built, or be prepared once and run many times. */
interface Preparable<R> extends Executable<R> {
  prepare(name: string): Executable<R>;
}

const names = new Set<string>();

/**
 * A hot statement built by Drizzle and prepared once per database handle (a replica's pool, or PGlite) instead of
 * built on every call: building queries was a measurable share of the API's CPU on the busiest calls, and PostgreSQL
 * plans a named statement once per pooled connection. A second handle on the same database (another replica in the
 * tests) gets statements of its own, under names of its own.
 *
 * Inside a transaction opened by inTransaction the statement is prepared once per pooled connection, on the handle of
 * the transaction's own connection. In any other transaction (a savepoint, PGlite, a plain db.transaction) it is built
 * for the call: a statement prepared on the pool runs on whichever connection the pool hands out, outside the
 * transaction's view and its atomicity.
 */
export function preparedPerHandle<R>(name: string, build: (db: DbOrTx) => Preparable<R>): (db: DbOrTx) => Executable<R> {
  // One name, one statement text: pg refuses a name prepared again on a connection with another text.
  if (names.has(name)) throw new Error(`prepared statement ${name} is defined twice`);
  names.add(name);
  const kept = new WeakMap<object, Executable<R>>();
  let handles = 0;
  return (db) => {
    const handle = handleOf(db);
    if (!handle) return build(db);
    let statement = kept.get(handle);
    if (!statement) {
      statement = build(handle).prepare(`${name}_${++handles}`);
      kept.set(handle, statement);
    }
    return statement;
  };
}
