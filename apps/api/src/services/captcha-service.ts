import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';
import type { Db } from '../db/client';
import { pruneSpentCaptchas, spendCaptcha } from '../repositories/captcha-repository';

const CHALLENGE_TTL_MS = 5 * 60_000;
// SHA-256 with one iteration per attempt and 5–10 thousand attempts: ~60 ms in Node here, well under a second
// in a phone's browser, yet each listing costs a bot real work.
const COST = 1;
/**
 * A client that sprays wrong passwords over many RUTs gets challenges this many times costlier (decision 041): the
 * members behind its address pay a few seconds more, not an hour's refusal.
 */
export const COSTLY_FACTOR = 10;
/** How often each replica deletes the spent solutions of long-expired challenges. */
export const PRUNE_INTERVAL_MS = 60_000;

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

export type CaptchaRefusal = 'missing' | 'malformed' | 'invalid' | 'expired' | 'replayed';
/** `work`: the solution's counter, the attempts its solver made (a costly challenge's is at least `costlyWork`). */
export type CaptchaResult = { ok: true; work: number } | { ok: false; reason: CaptchaRefusal };
/** A solution verified and not yet spent: what the product list spends in `captcha_uses` before it reads anything. */
export interface CaptchaSpend {
  signature: string;
  expiresAt: Date;
}

export type CaptchaService = ReturnType<typeof createCaptchaService>;

export function createCaptchaService(db: Db, options: { secret: string; counter: { min: number; max: number } }) {
  // The key-signature secret is derived so that one configured secret is enough.
  const secrets = { signature: options.secret, keySignature: `${options.secret}:key` };

  // Spent solutions of expired challenges can no longer be replayed (verification refuses them first).
  const pruneSpent = () => pruneSpentCaptchas(db);

  /**
   * Verifies the solution carried in the Authorization header (base64 of `{challenge, solution}`, optionally after
   * 'Bearer ') without spending it: the caller spends it in the statement of what it gates (the product list's
   * `spendAndListProducts`), and refuses it as replayed when that inserts nothing.
   */
  async function verify(header: string | undefined): Promise<{ ok: true; spend: CaptchaSpend; work: number } | { ok: false; reason: Exclude<CaptchaRefusal, 'replayed'> }> {
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
    const { challenge, solution } = parsed.data;
    // Every challenge issued here carries a key signature: the check verifies it instead of deriving the key again.
    if (!challenge.parameters.keySignature) return { ok: false, reason: 'invalid' };
    // A payload the library cannot read (an unknown algorithm, say) is an invalid one, not a fault of ours.
    const verdict = await verifySolution({
      challenge,
      solution,
      deriveKey,
      hmacSignatureSecret: secrets.signature,
      hmacKeySignatureSecret: secrets.keySignature,
    }).catch(() => null);
    if (!verdict) return { ok: false, reason: 'invalid' };
    if (!verdict.verified) return { ok: false, reason: verdict.expired ? 'expired' : 'invalid' };
    const expiresAt = new Date((challenge.parameters.expiresAt ?? Date.now() / 1000 + CHALLENGE_TTL_MS / 1000) * 1000);
    return { ok: true, spend: { signature: challenge.signature, expiresAt }, work: solution.counter };
  }

  // A costly challenge's counter lies above every ordinary one's, so its solution proves the extra work was done.
  const costly = { min: options.counter.max * (COSTLY_FACTOR / 2), max: options.counter.max * COSTLY_FACTOR };

  return {
    /** The least `work` a solution of a costly challenge shows. */
    costlyWork: costly.min,

    challenge(options_: { costly?: boolean } = {}): Promise<Challenge> {
      const range = options_.costly ? costly : options.counter;
      return createChallenge({
        algorithm: 'SHA-256',
        cost: COST,
        // altcha-lib's randomInt takes (max, min).
        counter: randomInt(range.max, range.min),
        deriveKey,
        hmacSignatureSecret: secrets.signature,
        hmacKeySignatureSecret: secrets.keySignature,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      });
    },

    /** Verifies the solution carried in the Authorization header and spends it: the same solution never passes twice. */
    async verifyAndSpend(header: string | undefined): Promise<CaptchaResult> {
      const verified = await verify(header);
      if (!verified.ok) return verified;
      if (!(await spendCaptcha(db, verified.spend.signature, verified.spend.expiresAt))) return { ok: false, reason: 'replayed' };
      return { ok: true, work: verified.work };
    },

    verify,

    pruneSpent,
  };
}
