import { sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * Runs several writes as one statement: every write but the last as a data-modifying CTE, the last as the statement
 * itself. One round trip instead of one per write, and atomic on its own. The writes run against one snapshot and
 * cannot see one another's rows, so no two of them may change the same row; foreign keys are checked at the
 * statement's end, when every row is in.
 */
export async function inOneStatement(db: DbOrTx, writes: readonly SQLWrapper[], last: SQLWrapper): Promise<void> {
  // getSQL(): a builder put in a template as is is taken for a subquery and put in parentheses.
  const ctes = writes.map((write, i) => sql`${sql.identifier(`w${i}`)} as (${write.getSQL()})`);
  await db.execute(ctes.length ? sql`with ${sql.join(ctes, sql`, `)} ${last.getSQL()}` : last.getSQL());
}
