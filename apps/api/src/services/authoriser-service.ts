import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authorizations, members } from '../db/schema';

export interface PendingPush {
  id: string;
  monto: number;
  expiraEn: number;
}

export type AuthoriserService = ReturnType<typeof createAuthoriserService>;

/**
 * The mobile authoriser's side of factor 2: the payer's phone sees the pending pushes of its RUT and approves or
 * rejects one. In the sandbox the phone is the /sandbox/authorizer page; a real deployment puts the issuer's app
 * behind the same two operations.
 */
export function createAuthoriserService(db: Db) {
  return {
    async pending(rut: string): Promise<PendingPush[]> {
      const rows = await db
        .select({
          id: authorizations.id,
          amount: authorizations.amount,
          secondsLeft: sql<number>`greatest(0, floor(extract(epoch from ${authorizations.expiresAt} - now())))::int`,
        })
        .from(authorizations)
        .innerJoin(members, eq(members.id, authorizations.memberId))
        .where(and(eq(members.rut, rut), eq(authorizations.factor, 2), eq(authorizations.status, 'pending'), sql`${authorizations.expiresAt} > now()`))
        .orderBy(asc(authorizations.createdAt));
      return rows.map((r) => ({ id: r.id, monto: r.amount, expiraEn: r.secondsLeft }));
    },

    /** Approves or rejects a pending, unexpired push of this RUT; false when there is none. */
    async decide(rut: string, id: string, approve: boolean): Promise<boolean> {
      const rows = await db
        .update(authorizations)
        .set({ status: approve ? 'approved' : 'rejected', decidedAt: sql`now()` })
        .where(
          and(
            eq(authorizations.id, id),
            eq(authorizations.factor, 2),
            eq(authorizations.status, 'pending'),
            sql`${authorizations.expiresAt} > now()`,
            sql`${authorizations.memberId} = (select id from members where rut = ${rut})`,
          ),
        )
        .returning({ id: authorizations.id });
      return rows.length === 1;
    },
  };
}
