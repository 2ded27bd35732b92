import { and, eq, isNull, sql } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../db/client';
import { sessions } from '../db/schema';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

// ASVS 7.3.2: an absolute lifetime on top of the inactivity timeout (sessionTimeOut minutes).
const ABSOLUTE_LIFETIME_MINUTES = 60;

export interface SessionRow {
  id: string;
  rut: string;
}

/** Opaque 256-bit token for the member's browser; only its hash is stored. */
export async function createSession(db: DbOrTx, rut: string): Promise<{ token: string; session: SessionRow }> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await db.insert(sessions).values({ tokenHash: hashToken(token), rut }).returning({ id: sessions.id, rut: sessions.rut });
  if (!row) throw new Error('session insert returned nothing');
  return { token, session: row };
}

/**
 * The session behind a token, if it is bound to this RUT (when the call names one), not revoked, and neither idle past the timeout nor past
 * its absolute lifetime; touching it slides the inactivity window. Time is the database's, shared by all replicas.
 */
export async function touchSession(db: DbOrTx, token: string, rut: string | null, timeoutMinutes: number): Promise<SessionRow | null> {
  const rows = await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(sessions.tokenHash, hashToken(token)),
        // Calls that carry no RUT of the member (login, voucher query) are bound through the token alone.
        rut === null ? undefined : eq(sessions.rut, rut),
        isNull(sessions.revokedAt),
        sql`${sessions.lastSeenAt} > now() - make_interval(mins => ${timeoutMinutes})`,
        sql`${sessions.createdAt} > now() - make_interval(mins => ${ABSOLUTE_LIFETIME_MINUTES})`,
      ),
    )
    .returning({ id: sessions.id, rut: sessions.rut });
  return rows[0] ?? null;
}
