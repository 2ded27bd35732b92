import { createChallenge, randomInt, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { captchaUses } from '../db/schema';
import { checkCaptcha } from './captcha-check';

const CHALLENGE_TTL_MS = 5 * 60_000;
// SHA-256 with one iteration per attempt and 5–10 thousand attempts: ~60 ms in Node here, well under a second
// in a phone's browser, yet each listing costs a bot real work.
const ALGORITHM = 'SHA-256';
const COST = 1;

const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      expiresAt: z.number().optional(),
    }),
    signature: z.string().min(1).max(256),
  }),
  solution: z.object({ counter: z.number().int().nonnegative(), derivedKey: z.string().max(256) }).passthrough(),
});

export type CaptchaResult = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'invalid' | 'expired' | 'replayed' };

export type CaptchaService = ReturnType<typeof createCaptchaService>;

export function createCaptchaService(db: Db, options: { secret: string; counter: { min: number; max: number } }) {
  // The key-signature secret is derived so that one configured secret is enough.
  const keySecret = `${options.secret}:key`;
  return {
    async challenge(): Promise<Challenge> {
      return createChallenge({
        algorithm: ALGORITHM,
        cost: COST,
        counter: randomInt(options.counter.min, options.counter.max),
        deriveKey,
        hmacSignatureSecret: options.secret,
        hmacKeySignatureSecret: keySecret,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      });
    },

    /**
     * Verifies the solution carried in the Authorization header (base64 of `{challenge, solution}`, optionally
     * after 'Bearer ') and spends it: the same solution never lists products twice.
     */
    async verifyAndSpend(header: string | undefined): Promise<CaptchaResult> {
      if (!header) return { ok: false, reason: 'missing' };
      const encoded = header.startsWith('Bearer ') ? header.slice(7) : header;
      if (encoded.length > 4096) return { ok: false, reason: 'malformed' };
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      const parsed = payloadSchema.safeParse(decoded);
      if (!parsed.success) return { ok: false, reason: 'malformed' };
      const { challenge } = parsed.data;
      const verdict = checkCaptcha(parsed.data, { signature: options.secret, keySignature: keySecret });
      if (verdict !== 'verified') return { ok: false, reason: verdict };
      const expiresAt = new Date((challenge.parameters.expiresAt ?? Date.now() / 1000 + CHALLENGE_TTL_MS / 1000) * 1000);
      const inserted = await db
        .insert(captchaUses)
        .values({ signature: challenge.signature, expiresAt })
        .onConflictDoNothing()
        .returning({ signature: captchaUses.signature });
      if (inserted.length === 0) return { ok: false, reason: 'replayed' };
      // Keep the table small: spent solutions of expired challenges can no longer be replayed anyway.
      await db.delete(captchaUses).where(lt(captchaUses.expiresAt, sql`now() - interval '1 minute'`));
      return { ok: true };
    },
  };
}
