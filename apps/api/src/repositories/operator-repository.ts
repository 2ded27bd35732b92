import { and, desc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { machineTokens, operatorLogins, operatorRoles, operatorSessions } from '../db/schema';

export type OperatorSessionRow = typeof operatorSessions.$inferSelect;
export type MachineTokenRow = typeof machineTokens.$inferSelect;

export async function insertLogin(db: DbOrTx, row: { stateHash: string; codeVerifier: string; nonce: string }): Promise<void> {
  await db.insert(operatorLogins).values(row);
}

/** Takes a sign-in under way (once): a replayed callback finds nothing. Older than `maxAgeSeconds` counts as none. */
export async function takeLogin(db: DbOrTx, stateHash: string, maxAgeSeconds: number) {
  const [row] = await db
    .delete(operatorLogins)
    .where(eq(operatorLogins.stateHash, stateHash))
    .returning({ codeVerifier: operatorLogins.codeVerifier, nonce: operatorLogins.nonce, fresh: sql<boolean>`${operatorLogins.createdAt} > now() - make_interval(secs => ${maxAgeSeconds})` });
  return row?.fresh ? row : null;
}

export async function pruneLogins(db: DbOrTx, maxAgeSeconds: number): Promise<void> {
  await db.delete(operatorLogins).where(lt(operatorLogins.createdAt, sql`now() - make_interval(secs => ${maxAgeSeconds})`));
}

/** A new session ending `maxHours` from now by the database's clock (every time-out is measured by it). */
export async function insertSession(
  db: DbOrTx,
  row: { tokenHash: string; csrfToken: string; subject: string; name: string; roles: string[]; maxHours: number },
): Promise<OperatorSessionRow> {
  const { maxHours, ...values } = row;
  const [inserted] = await db.insert(operatorSessions).values({ ...values, expiresAt: sql`now() + make_interval(hours => ${maxHours})` }).returning();
  return inserted!;
}

/**
 * The live session with this token hash, its idle clock restarted: null when unknown, ended, past its absolute end
 * or idle longer than `idleMinutes` (the check and the touch are one statement, so two replicas agree).
 */
export async function touchSession(db: DbOrTx, tokenHash: string, idleMinutes: number): Promise<OperatorSessionRow | null> {
  const [row] = await db
    .update(operatorSessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(operatorSessions.tokenHash, tokenHash),
        isNull(operatorSessions.endedAt),
        gt(operatorSessions.expiresAt, sql`now()`),
        gt(operatorSessions.lastSeenAt, sql`now() - make_interval(mins => ${idleMinutes})`),
      ),
    )
    .returning();
  return row ?? null;
}

export async function endSession(db: DbOrTx, id: string): Promise<void> {
  await db.update(operatorSessions).set({ endedAt: sql`now()` }).where(and(eq(operatorSessions.id, id), isNull(operatorSessions.endedAt)));
}

export async function assignedRoles(db: DbOrTx, subject: string): Promise<string[] | null> {
  const [row] = await db.select().from(operatorRoles).where(eq(operatorRoles.subject, subject));
  return row?.roles ?? null;
}

export async function setAssignedRoles(db: DbOrTx, subject: string, roles: string[], updatedBy: string): Promise<void> {
  await db
    .insert(operatorRoles)
    .values({ subject, roles, updatedBy })
    .onConflictDoUpdate({ target: operatorRoles.subject, set: { roles, updatedBy, updatedAt: sql`now()` } });
}

export function listAssignedRoles(db: DbOrTx) {
  return db.select().from(operatorRoles).orderBy(operatorRoles.subject);
}

export async function insertMachineToken(
  db: DbOrTx,
  row: { name: string; tokenHash: string; scopes: string[]; createdBy: string; issuerSubject: string | null; approved: boolean },
): Promise<MachineTokenRow | null> {
  const { approved, ...values } = row;
  const [inserted] = await db
    .insert(machineTokens)
    .values({ ...values, ...(approved ? { approvedAt: sql`now()`, approvedBy: row.createdBy } : {}) })
    .onConflictDoNothing()
    .returning();
  return inserted ?? null;
}

/** A live machine token by its hash (approved by a second person, not revoked), its last use recorded. */
export async function useMachineToken(db: DbOrTx, tokenHash: string): Promise<MachineTokenRow | null> {
  const [row] = await db
    .update(machineTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(machineTokens.tokenHash, tokenHash), isNotNull(machineTokens.approvedAt), isNull(machineTokens.revokedAt)))
    .returning();
  return row ?? null;
}

/** Approves a token waiting for its second person; null when it is gone, revoked or already approved. */
export async function approveMachineToken(db: DbOrTx, id: string, approvedBy: string): Promise<MachineTokenRow | null> {
  const [row] = await db
    .update(machineTokens)
    .set({ approvedAt: sql`now()`, approvedBy })
    .where(and(eq(machineTokens.id, id), isNull(machineTokens.approvedAt), isNull(machineTokens.revokedAt)))
    .returning();
  return row ?? null;
}

export async function machineToken(db: DbOrTx, id: string): Promise<MachineTokenRow | null> {
  const [row] = await db.select().from(machineTokens).where(eq(machineTokens.id, id));
  return row ?? null;
}

/** The live tokens a person asked for (they act for that person). */
export function tokensOf(db: DbOrTx, issuerSubject: string) {
  return db.select().from(machineTokens).where(and(eq(machineTokens.issuerSubject, issuerSubject), isNull(machineTokens.revokedAt)));
}

/** Ends every live console session of a subject (their roles changed). */
export async function endSessionsOf(db: DbOrTx, subject: string): Promise<number> {
  const ended = await db
    .update(operatorSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(operatorSessions.subject, subject), isNull(operatorSessions.endedAt)))
    .returning({ id: operatorSessions.id });
  return ended.length;
}

export async function revokeMachineToken(db: DbOrTx, id: string, revokedBy: string, issuerSubject?: string): Promise<MachineTokenRow | null> {
  const [row] = await db
    .update(machineTokens)
    .set({ revokedAt: sql`now()`, revokedBy })
    .where(and(eq(machineTokens.id, id), isNull(machineTokens.revokedAt), issuerSubject === undefined ? undefined : eq(machineTokens.issuerSubject, issuerSubject)))
    .returning();
  return row ?? null;
}

/** Every token, or those one person asked for. */
export function listMachineTokens(db: DbOrTx, issuerSubject?: string) {
  return db
    .select()
    .from(machineTokens)
    .where(issuerSubject === undefined ? undefined : eq(machineTokens.issuerSubject, issuerSubject))
    .orderBy(desc(machineTokens.createdAt));
}
