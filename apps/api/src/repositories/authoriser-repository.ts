import { and, asc, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { authoriserDevices, authoriserEnrolmentCodes, authoriserWebhooks, authorizations } from '../db/schema';

export type DeviceRow = typeof authoriserDevices.$inferSelect;

// ---- Enrolment codes ----

export async function insertEnrolmentCode(db: DbOrTx, values: { codeHash: string; memberId: string; issuedBy: string; validDays: number }): Promise<void> {
  const { validDays, ...row } = values;
  // The same night's load sent again carries the same code: it is already there.
  await db.insert(authoriserEnrolmentCodes).values({ ...row, expiresAt: sql`now() + make_interval(days => ${validDays})` }).onConflictDoNothing();
}

/** Spends an unused, unexpired code: its member, or null when there is no such code (the row stays as it was). */
export async function spendEnrolmentCode(tx: Tx, codeHash: string): Promise<string | null> {
  const [row] = await tx
    .update(authoriserEnrolmentCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(authoriserEnrolmentCodes.codeHash, codeHash), isNull(authoriserEnrolmentCodes.usedAt), gt(authoriserEnrolmentCodes.expiresAt, sql`now()`)))
    .returning({ memberId: authoriserEnrolmentCodes.memberId });
  return row?.memberId ?? null;
}

// ---- Devices ----

/**
 * Revokes a device, named by its id (the operator) or as its member's active one (a newer enrolment replaces it):
 * the device revoked, or null when there was no active one.
 */
export async function revokeDevice(db: DbOrTx, which: { id: string } | { memberId: string }): Promise<{ id: string; memberId: string } | null> {
  const named = 'id' in which ? eq(authoriserDevices.id, which.id) : eq(authoriserDevices.memberId, which.memberId);
  const [row] = await db
    .update(authoriserDevices)
    .set({ revokedAt: sql`now()` })
    .where(and(named, isNull(authoriserDevices.revokedAt)))
    .returning({ id: authoriserDevices.id, memberId: authoriserDevices.memberId });
  return row ?? null;
}

export async function insertDevice(tx: Tx, values: { memberId: string; publicKey: string; name: string }): Promise<string> {
  const [row] = await tx.insert(authoriserDevices).values(values).returning({ id: authoriserDevices.id });
  return row!.id;
}

export async function findDevice(db: DbOrTx, id: string): Promise<DeviceRow | null> {
  const [row] = await db.select().from(authoriserDevices).where(eq(authoriserDevices.id, id));
  return row ?? null;
}

/** Whether the member ever had a device that is now revoked (the authoriser is then 'blocked', code 7). */
export async function hasRevokedDevice(db: DbOrTx, memberId: string): Promise<boolean> {
  return (await db.$count(authoriserDevices, and(eq(authoriserDevices.memberId, memberId), sql`${authoriserDevices.revokedAt} is not null`))) > 0;
}

/** Whether this device is the member's active one. */
export async function isActiveDevice(db: DbOrTx, id: string): Promise<boolean> {
  return (await db.$count(authoriserDevices, and(eq(authoriserDevices.id, id), isNull(authoriserDevices.revokedAt)))) > 0;
}

/** A member's devices, newest first, without their keys: the operator's view. */
export function devicesOfMember(db: DbOrTx, memberId: string) {
  return db
    .select({ id: authoriserDevices.id, nombre: authoriserDevices.name, enrolado: authoriserDevices.enrolledAt, revocado: authoriserDevices.revokedAt })
    .from(authoriserDevices)
    .where(eq(authoriserDevices.memberId, memberId))
    .orderBy(desc(authoriserDevices.enrolledAt));
}

// ---- Pushes as a device sees them ----

/** The member's pending, unexpired pushes (factor 2), oldest first. */
export function pendingPushesOfMember(db: DbOrTx, memberId: string) {
  return db
    .select()
    .from(authorizations)
    .where(and(eq(authorizations.memberId, memberId), eq(authorizations.factor, 2), eq(authorizations.status, 'pending'), gt(authorizations.expiresAt, sql`now()`)))
    .orderBy(asc(authorizations.createdAt));
}

/** One push, locked, and whether it has expired (database time). */
export async function lockPush(tx: Tx, id: string) {
  const [row] = await tx
    .select({ auth: authorizations, expired: sql<boolean>`${authorizations.expiresAt} <= now()` })
    .from(authorizations)
    .where(and(eq(authorizations.id, id), eq(authorizations.factor, 2)))
    .for('update');
  return row ?? null;
}

// ---- Webhook deliveries ----

export async function enqueueWebhook(tx: Tx, values: { authorizationId: string; body: Record<string, unknown>; expiresAt: Date }): Promise<void> {
  await tx.insert(authoriserWebhooks).values(values);
}

/**
 * Claims up to `limit` deliveries due now for `leaseSeconds`: no other replica takes them meanwhile (SKIP LOCKED while
 * claiming, the later next attempt after), and no transaction stays open while the webhook answers.
 */
export async function claimDueWebhooks(db: DbOrTx, limit: number, leaseSeconds: number) {
  const due = db
    .select({ id: authoriserWebhooks.id })
    .from(authoriserWebhooks)
    .where(and(isNull(authoriserWebhooks.deliveredAt), lte(authoriserWebhooks.nextAttemptAt, sql`now()`), gt(authoriserWebhooks.expiresAt, sql`now()`)))
    .orderBy(asc(authoriserWebhooks.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(authoriserWebhooks)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(inArray(authoriserWebhooks.id, due))
    .returning();
}

export async function markWebhookDelivered(db: DbOrTx, id: string): Promise<void> {
  await db.update(authoriserWebhooks).set({ deliveredAt: sql`now()`, attempts: sql`${authoriserWebhooks.attempts} + 1`, lastError: null }).where(eq(authoriserWebhooks.id, id));
}

export async function markWebhookFailed(db: DbOrTx, id: string, error: string, retryInSeconds: number): Promise<void> {
  await db
    .update(authoriserWebhooks)
    .set({ attempts: sql`${authoriserWebhooks.attempts} + 1`, lastError: error, nextAttemptAt: sql`now() + make_interval(secs => ${retryInSeconds})` })
    .where(eq(authoriserWebhooks.id, id));
}
