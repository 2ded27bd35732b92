import { lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { captchaUses } from '../db/schema';

/**
 * Spends a verified captcha solution. The primary key makes it single-use across requests and replicas: a second
 * spend of the same signature, even a concurrent one, inserts nothing and answers false.
 */
export async function spendCaptcha(db: DbOrTx, signature: string, expiresAt: Date): Promise<boolean> {
  const inserted = await db.insert(captchaUses).values({ signature, expiresAt }).onConflictDoNothing().returning({ signature: captchaUses.signature });
  return inserted.length > 0;
}

/** Deletes the spent solutions of challenges that expired over a minute ago: they can no longer be replayed. */
export async function pruneSpentCaptchas(db: DbOrTx): Promise<void> {
  await db.delete(captchaUses).where(lt(captchaUses.expiresAt, sql`now() - interval '1 minute'`));
}
