import { sql, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { pgClientOf, type DbOrTx } from './client';

const dialect = new PgDialect();

/**
 * Statement texts given a name of their own, so that PostgreSQL parses and plans each once per connection. The
 * texts a payment's writes take are few (they differ by how many items, products and instalments it has, and by
 * which of a call's optional writes it makes); past the bound, a new text runs unnamed, so an unexpected variety
 * cannot fill every connection with statements. A name always stands for the same text, on every connection.
 */
const names = new Map<string, string>();
const MAX_NAMED_TEXTS = 200;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_NAMED_TEXTS) {
    name = `one_statement_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs several writes as one statement: every write but the last as a data-modifying CTE, the last as the statement
 * itself. One round trip instead of one per write, and atomic on its own. The writes run against one snapshot and
 * cannot see one another's rows, so no two of them may change the same row; foreign keys are checked at the
 * statement's end, when every row is in.
 *
 * On PostgreSQL the statement runs as a named prepared statement, on the transaction's connection (inTransaction) or
 * on the pool, as db/prepared.ts does for fixed statements; elsewhere (PGlite, another transaction) it runs as built.
 */
export async function inOneStatement(db: DbOrTx, writes: readonly SQLWrapper[], last: SQLWrapper): Promise<void> {
  // getSQL(): a builder put in a template as is is taken for a subquery and put in parentheses.
  const ctes = writes.map((write, i) => sql`${sql.identifier(`w${i}`)} as (${write.getSQL()})`);
  const statement = ctes.length ? sql`with ${sql.join(ctes, sql`, `)} ${last.getSQL()}` : last.getSQL();
  const client = pgClientOf(db);
  if (client) {
    const { sql: text, params } = dialect.sqlToQuery(statement);
    const name = nameOf(text);
    await client.query(name ? { name, text, values: params } : { text, values: params });
    return;
  }
  await db.execute(statement);
}
