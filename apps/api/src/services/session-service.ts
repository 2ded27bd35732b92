import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../db/client';
import * as sessionRepository from '../repositories/session-repository';

export type { SessionRow } from '../repositories/session-repository';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Opaque 256-bit token for the member's browser; only its hash is stored. */
export function newSessionToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/**
 * The live session behind a token, bound to `rut` when the call names the member's RUT (calls that carry none, the
 * login and the voucher query, are bound through the token alone); touching it slides the inactivity window.
 */
export function touchSession(db: DbOrTx, token: string, rut: string | null, timeoutMinutes: number): Promise<sessionRepository.SessionRow | null> {
  return sessionRepository.touchSession(db, hashToken(token), rut, timeoutMinutes);
}
