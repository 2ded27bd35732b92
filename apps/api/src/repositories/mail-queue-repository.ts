import { and, asc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { mailQueue } from '../db/schema';

export type QueuedMail = typeof mailQueue.$inferSelect;

/** Queues an e-mail in the caller's transaction: it leaves only if that transaction commits. */
export async function enqueueMail(tx: Tx, mail: { to: string; subject: string; text: string; html: string }): Promise<void> {
  await tx.insert(mailQueue).values(mail);
}

/**
 * Claims up to `limit` unsent e-mails due now, with fewer than `maxAttempts` tries, for `leaseSeconds`: no other
 * replica takes them meanwhile (SKIP LOCKED while claiming, the later next attempt after), and no transaction stays
 * open while the mail server answers.
 */
export async function claimDueMails(db: DbOrTx, limit: number, leaseSeconds: number, maxAttempts: number): Promise<QueuedMail[]> {
  const due = db
    .select({ id: mailQueue.id })
    .from(mailQueue)
    .where(and(isNull(mailQueue.sentAt), lte(mailQueue.nextAttemptAt, sql`now()`), lt(mailQueue.attempts, maxAttempts)))
    .orderBy(asc(mailQueue.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(mailQueue)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(inArray(mailQueue.id, due))
    .returning();
}

export async function markMailSent(db: DbOrTx, id: string): Promise<void> {
  await db.update(mailQueue).set({ sentAt: sql`now()`, attempts: sql`${mailQueue.attempts} + 1`, lastError: null }).where(eq(mailQueue.id, id));
}

export async function markMailFailed(db: DbOrTx, id: string, error: string, retryInSeconds: number): Promise<void> {
  await db
    .update(mailQueue)
    .set({ attempts: sql`${mailQueue.attempts} + 1`, lastError: error, nextAttemptAt: sql`now() + make_interval(secs => ${retryInSeconds})` })
    .where(eq(mailQueue.id, id));
}
