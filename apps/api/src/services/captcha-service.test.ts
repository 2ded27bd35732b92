import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/client';
import { captchaUses } from '../db/schema';
import { DATABASE_KINDS, openTestDatabase, startTestApp } from '../../test/support/test-app';
import { createCaptchaService, PRUNE_INTERVAL_MS } from './captcha-service';

const SECRET = 'captcha-service-test-secret-0123456789';
const SECRETS = { signature: SECRET, keySignature: `${SECRET}:key` };

/** A solved challenge as the browser sends it, expiring `expiresInSeconds` from now (negative: already expired). */
async function solved(expiresInSeconds = 300): Promise<{ header: string; signature: string }> {
  const challenge = await createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: 25,
    deriveKey,
    hmacSignatureSecret: SECRETS.signature,
    hmacKeySignatureSecret: SECRETS.keySignature,
    expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
  });
  const solution = await solveChallenge({ challenge, deriveKey });
  return { header: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'), signature: challenge.signature! };
}

const spentSignatures = async (database: Database) => (await database.db.select({ signature: captchaUses.signature }).from(captchaUses)).map((r) => r.signature).sort();

/** A spent solution whose challenge expired `ago` (an SQL interval) by the database's clock. */
const spentExpired = (database: Database, signature: string, ago = '10 minutes') =>
  database.db.insert(captchaUses).values({ signature, expiresAt: sql`now() - ${ago}::interval` as unknown as Date });

describe.each(DATABASE_KINDS)('captcha service on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });
  afterEach(async () => {
    await database.db.delete(captchaUses);
  });

  const service = () => createCaptchaService(database.db, { secret: SECRET, counter: { min: 1, max: 50 } });

  const hex = fc.uint8Array({ minLength: 1, maxLength: 33 }).map((bytes) => Buffer.from(bytes).toString('hex'));
  // One change to a solved challenge, or none; a key signature is never removed (the service refuses that first).
  const change = fc.oneof(
    fc.constant({}),
    fc.record({ parameter: fc.constantFrom('salt', 'nonce', 'keyPrefix', 'keySignature', 'algorithm'), value: hex }),
    fc.record({ parameter: fc.constantFrom('cost', 'keyLength'), value: fc.integer({ min: 0, max: 100 }) }),
    fc.record({ parameter: fc.constant('expiresAt'), value: fc.integer({ min: 60, max: 10_000 }).map((ago) => Math.floor(Date.now() / 1000) - ago) }),
    fc.record({ signature: hex }),
    fc.record({ derivedKey: fc.oneof(hex, hex.map((h) => h.toUpperCase()), hex.map((h) => h.slice(1)), fc.string()) }),
    // The key signature vouches for the derived key, not the counter: only a counter out of range is refused.
    fc.record({ counter: fc.integer({ min: 2 ** 32, max: 2 ** 33 }) }),
    fc.record({ foreignKeys: fc.constant(true) }),
  );

  it('accepts a solved challenge only as issued: any change, or another deployment’s secret, is refused, an old one as expired', async () => {
    const solvedWith = async (secret: string) => {
      const challenge = await createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: 40,
        deriveKey,
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: `${secret}:key`,
        expiresAt: new Date(Date.now() + 600_000),
      });
      return { challenge, solution: (await solveChallenge({ challenge, deriveKey }))! };
    };
    const own = await solvedWith(SECRET);
    const foreign = await solvedWith('another-deployment-secret-0123456789');
    await fc.assert(
      fc.asyncProperty(change, async (c) => {
        const { challenge, solution } = 'foreignKeys' in c ? foreign : own;
        const changed = {
          parameters: 'parameter' in c ? { ...challenge.parameters, [c.parameter]: c.value } : challenge.parameters,
          signature: 'signature' in c ? c.signature : challenge.signature,
        };
        const solved = { ...solution, ...('derivedKey' in c && { derivedKey: c.derivedKey }), ...('counter' in c && { counter: c.counter }) };
        const header = Buffer.from(JSON.stringify({ challenge: changed, solution: solved })).toString('base64');
        const unchanged = !('foreignKeys' in c) && JSON.stringify({ changed, solved }) === JSON.stringify({ changed: challenge, solved: solution });
        const expected = unchanged ? { ok: true } : { ok: false, reason: 'parameter' in c && c.parameter === 'expiresAt' ? 'expired' : 'invalid' };
        expect(await service().verify(header)).toMatchObject(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('issues challenges its own check accepts, with counters in the configured range', async () => {
    const captcha = createCaptchaService(database.db, { secret: SECRET, counter: { min: 10, max: 14 } });
    for (let i = 0; i < 20; i++) {
      const challenge = await captcha.challenge();
      const solution = await solveChallenge({ challenge, deriveKey });
      expect(solution!.counter).toBeGreaterThanOrEqual(10);
      expect(solution!.counter).toBeLessThanOrEqual(14);
      const header = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      expect(await captcha.verifyAndSpend(header)).toEqual({ ok: true, work: expect.any(Number) });
    }
  });

  it('refuses a missing, malformed, tampered or foreign solution, spending nothing', async () => {
    const captcha = service();
    const { header } = await solved();
    const payload = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    expect(await captcha.verifyAndSpend(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(await captcha.verifyAndSpend('not base64 json')).toEqual({ ok: false, reason: 'malformed' });
    expect(await captcha.verifyAndSpend(encode({ challenge: payload.challenge }))).toEqual({ ok: false, reason: 'malformed' });
    const tampered = [
      { ...payload, solution: { ...payload.solution, derivedKey: 'ab'.repeat(32) } },
      { ...payload, challenge: { ...payload.challenge, signature: 'ab'.repeat(32) } },
      { ...payload, challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, cost: 2 } } },
      { ...payload, challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, keySignature: undefined } } },
    ];
    for (const changed of tampered) expect(await captcha.verifyAndSpend(encode(changed))).toEqual({ ok: false, reason: 'invalid' });
    const foreign = createCaptchaService(database.db, { secret: 'another-secret-of-another-deployment-01', counter: { min: 1, max: 50 } });
    expect(await foreign.verifyAndSpend(header)).toEqual({ ok: false, reason: 'invalid' });
    expect(await spentSignatures(database)).toEqual([]);
    expect(await captcha.verifyAndSpend(header)).toEqual({ ok: true, work: expect.any(Number) });
  });

  it('spends a solution once, even when it arrives many times at once', async () => {
    const captcha = service();
    const { header } = await solved();
    const results = await Promise.all(Array.from({ length: 12 }, () => captcha.verifyAndSpend(header)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === 'replayed')).toHaveLength(11);
    // Another replica (another service on the same database) refuses it too.
    expect(await service().verifyAndSpend(header)).toEqual({ ok: false, reason: 'replayed' });
  });

  it('prunes only the solutions of challenges expired over a minute ago; a live one stays refused', async () => {
    const captcha = service();
    const live = await solved();
    expect(await captcha.verifyAndSpend(live.header)).toEqual({ ok: true, work: expect.any(Number) });
    await spentExpired(database, 'expired-long-ago');
    await spentExpired(database, 'expired-just-now', '10 seconds');
    await captcha.pruneSpent();
    expect(await spentSignatures(database)).toEqual(['expired-just-now', live.signature].sort());
    expect(await captcha.verifyAndSpend(live.header)).toEqual({ ok: false, reason: 'replayed' });
    // A pruned solution's challenge has expired, so it is refused before the table is consulted.
    const old = await solved(-120);
    expect(await captcha.verifyAndSpend(old.header)).toEqual({ ok: false, reason: 'expired' });
  });
});

describe('captcha pruning in the app', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs on every replica’s scheduler from start to close', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t = await startTestApp('pglite');
    t.app.scheduler.start();
    let open = true;
    try {
      await spentExpired(t.database, 'before-the-tick');
      vi.advanceTimersByTime(PRUNE_INTERVAL_MS);
      await vi.waitFor(async () => expect(await spentSignatures(t.database)).toEqual([]), { timeout: 5_000, interval: 20 });

      await t.app.close();
      open = false;
      await spentExpired(t.database, 'after-close');
      // Closing clears every interval, so no tick is left that could prune.
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(PRUNE_INTERVAL_MS * 3);
      expect(await spentSignatures(t.database)).toEqual(['after-close']);
    } finally {
      if (open) await t.app.close();
      await t.database.close();
    }
  });
});
