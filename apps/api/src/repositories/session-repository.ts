import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { sessions } from '../db/schema';

// ASVS 7.3.2: an absolute lifetime on top of the inactivity timeout (sessionTimeOut minutes).
const ABSOLUTE_LIFETIME_MINUTES = 60;

export interface SessionRow {
  id: string;
  rut: string;
}

/** Not revoked, and neither idle past `timeoutMinutes` nor past its absolute lifetime (database time). */
export const liveCondition = (timeoutMinutes: number) =>
  and(
    isNull(sessions.revokedAt),
    sql`${sessions.lastSeenAt} > now() - make_interval(mins => ${timeoutMinutes})`,
    sql`${sessions.createdAt} > now() - make_interval(mins => ${ABSOLUTE_LIFETIME_MINUTES})`,
  );

/**
 * The live session behind a token hash, bound to `rut` when given: not revoked, neither idle past `timeoutMinutes`
 * nor past its absolute lifetime. Touching it slides the inactivity window; time is the database's, shared by replicas.
 */
export async function touchSession(db: DbOrTx, tokenHash: string, rut: string | null, timeoutMinutes: number): Promise<SessionRow | null> {
  const [row] = await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        rut === null ? undefined : eq(sessions.rut, rut),
        liveCondition(timeoutMinutes),
      ),
    )
    .returning({ id: sessions.id, rut: sessions.rut });
  return row ?? null;
}

/** Whether the session is live (not revoked, neither idle past `timeoutMinutes` nor past its lifetime), without touching it. */
export async function sessionIsLive(db: DbOrTx, id: string, timeoutMinutes: number): Promise<boolean> {
  const live = await db.$count(sessions, and(eq(sessions.id, id), liveCondition(timeoutMinutes)));
  return live > 0;
}
