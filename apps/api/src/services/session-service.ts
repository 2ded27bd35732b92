import { and, eq, isNull, sql } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../db/client';
import { preparedPerHandle } from '../db/prepared';
import { sessions } from '../db/schema';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

// ASVS 7.3.2: an absolute lifetime on top of the inactivity timeout (sessionTimeOut minutes).
const ABSOLUTE_LIFETIME_MINUTES = 60;

export interface SessionRow {
  id: string;
  rut: string;
}

/** Opaque 256-bit token for the member's browser; only its hash is stored. */
export function newSessionToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/**
 * The touch as a statement of its own or a part of one (call 3 reads the member's products with it), with the
 * placeholders `touchValues` fills. Calls that carry no RUT of the member (login, voucher query) are bound through the
 * token alone.
 */
export const touch = (db: DbOrTx, boundToRut: boolean) =>
  db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        boundToRut ? eq(sessions.rut, sql.placeholder('rut')) : undefined,
        isNull(sessions.revokedAt),
        sql`${sessions.lastSeenAt} > now() - make_interval(mins => ${sql.placeholder('timeoutMinutes')})`,
        sql`${sessions.createdAt} > now() - make_interval(mins => ${sql.placeholder('lifetimeMinutes')})`,
      ),
    )
    .returning({ id: sessions.id, rut: sessions.rut });

const touchByToken = preparedPerHandle('session_touch', (db) => touch(db, false));
const touchByTokenAndRut = preparedPerHandle('session_touch_rut', (db) => touch(db, true));

/**
 * The session behind a token, if it is bound to this RUT (when the call names one), not revoked, and neither idle past the timeout nor past
 * its absolute lifetime; touching it slides the inactivity window. Time is the database's, shared by all replicas.
 */
export async function touchSession(db: DbOrTx, token: string, rut: string | null, timeoutMinutes: number): Promise<SessionRow | null> {
  const rows = await (rut === null ? touchByToken : touchByTokenAndRut)(db).execute(touchValues(token, rut, timeoutMinutes));
  return rows[0] ?? null;
}

export const touchValues = (token: string, rut: string | null, timeoutMinutes: number) => ({
  tokenHash: hashToken(token),
  rut,
  timeoutMinutes,
  lifetimeMinutes: ABSOLUTE_LIFETIME_MINUTES,
});
