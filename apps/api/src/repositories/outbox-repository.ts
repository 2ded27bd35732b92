import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { outbox } from '../db/schema';

export type OutboxMail = typeof outbox.$inferSelect;

/** The sandbox's mailbox: e-mails land here when no SMTP server is configured. */
export async function insertMail(db: DbOrTx, mail: Omit<typeof outbox.$inferInsert, 'id' | 'createdAt'>): Promise<void> {
  await db.insert(outbox).values(mail);
}

export function latestMails(db: DbOrTx, limit: number): Promise<OutboxMail[]> {
  return db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(limit);
}

export async function mailById(db: DbOrTx, id: string): Promise<OutboxMail | null> {
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  return row ?? null;
}
