import { createChallenge, solveChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkCaptcha, issueChallenge, type CaptchaPayload } from './captcha-check';

const SECRETS = { signature: 'captcha-check-secret', keySignature: 'captcha-check-secret:key' };

/** altcha-lib's own verdict, in checkCaptcha's terms: the reference the fast check must agree with. */
async function libraryVerdict(payload: CaptchaPayload) {
  try {
    const result = await verifySolution({
      challenge: payload.challenge as Challenge,
      solution: payload.solution as Solution,
      deriveKey,
      hmacSignatureSecret: SECRETS.signature,
      hmacKeySignatureSecret: SECRETS.keySignature,
    });
    if (result.expired) return 'expired';
    return result.verified ? 'verified' : 'invalid';
  } catch {
    return 'invalid';
  }
}

async function issue(expiresInSeconds: number, counter: number) {
  const challenge = await createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter,
    deriveKey,
    hmacSignatureSecret: SECRETS.signature,
    hmacKeySignatureSecret: SECRETS.keySignature,
    expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
  });
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('unsolvable challenge');
  return { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } } as CaptchaPayload;
}

type Change =
  | { kind: 'none' }
  | { kind: 'derivedKey'; key: string }
  | { kind: 'counter'; counter: number }
  | { kind: 'signature'; signature: string }
  | { kind: 'parameter'; name: string; value: unknown }
  | { kind: 'flipKeyCase' };

const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 80 });

/** One way a client could alter a good payload; 'none' keeps it as issued. */
const tamper: fc.Arbitrary<Change> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('derivedKey' as const), key: fc.oneof(hex, fc.string(), fc.stringMatching(/^[0-9A-F]{64}$/)) }),
  fc.record({ kind: fc.constant('counter' as const), counter: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 32), fc.constant(-1)) }),
  fc.record({ kind: fc.constant('signature' as const), signature: fc.oneof(fc.constant(''), hex, fc.string()) }),
  fc.record({
    kind: fc.constant('parameter' as const),
    name: fc.constantFrom('nonce', 'salt', 'cost', 'keyLength', 'keyPrefix', 'keySignature', 'expiresAt', 'algorithm'),
    value: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
  }),
  fc.record({ kind: fc.constant('flipKeyCase' as const) }),
);

/** A copy of the payload with the change applied. */
function applied(original: CaptchaPayload, change: Change): CaptchaPayload {
  const payload = structuredClone(original);
  switch (change.kind) {
    case 'none':
      break;
    case 'derivedKey':
      payload.solution.derivedKey = change.key;
      break;
    case 'counter':
      payload.solution.counter = change.counter;
      break;
    case 'signature':
      payload.challenge.signature = change.signature;
      break;
    case 'parameter':
      (payload.challenge.parameters as unknown as Record<string, unknown>)[change.name] = change.value;
      break;
    case 'flipKeyCase':
      payload.solution.derivedKey = payload.solution.derivedKey.toUpperCase();
      break;
  }
  return payload;
}

describe('checkCaptcha', () => {
  let fresh: CaptchaPayload[];
  let expired: CaptchaPayload;

  beforeAll(async () => {
    fresh = await Promise.all([1, 7, 20, 35].map((counter) => issue(300, counter)));
    expired = await issue(-5, 3);
  });

  it('verifies a solved challenge and refuses an expired one, as the library does', async () => {
    for (const payload of fresh) {
      expect(checkCaptcha(payload, SECRETS)).toBe('verified');
      expect(await libraryVerdict(payload)).toBe('verified');
    }
    expect(checkCaptcha(expired, SECRETS)).toBe('expired');
    expect(await libraryVerdict(expired)).toBe('expired');
  });

  it('refuses a payload signed with another secret', () => {
    expect(checkCaptcha(fresh[0]!, { signature: 'other', keySignature: SECRETS.keySignature })).toBe('invalid');
    expect(checkCaptcha(fresh[0]!, { signature: SECRETS.signature, keySignature: 'other' })).toBe('invalid');
  });

  it('gives the library’s verdict on every altered payload', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3 }), tamper, async (which, change) => {
        const payload = applied(fresh[which]!, change);
        expect(checkCaptcha(payload, SECRETS)).toBe(await libraryVerdict(payload));
      }),
      { numRuns: 400 },
    );
  });
});

describe('issueChallenge', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const secret = fc.oneof(fc.string({ minLength: 1 }), fc.string({ minLength: 32, maxLength: 64, unit: 'grapheme-ascii' }));

  it('issues what altcha-lib’s createChallenge issues from the same random bytes, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        secret,
        fc.integer({ min: 0, max: 0xffff_ffff }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1000, max: 4_000_000_000_000 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        async (signatureSecret, counter, cost, expiresAtMs, entropy) => {
          const secrets = { signature: signatureSecret, keySignature: `${signatureSecret}:key` };
          let offset = 0;
          // altcha-lib draws the nonce, then the salt, 16 bytes each.
          vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
            const bytes = array as unknown as Uint8Array;
            bytes.set(entropy.subarray(offset, offset + bytes.length));
            offset += bytes.length;
            return array;
          });
          const theirs = await createChallenge({
            algorithm: 'SHA-256',
            cost,
            counter,
            deriveKey,
            hmacSignatureSecret: secrets.signature,
            hmacKeySignatureSecret: secrets.keySignature,
            expiresAt: new Date(expiresAtMs),
          });
          vi.restoreAllMocks();
          const ours = issueChallenge({ secrets, counter, cost, expiresAt: new Date(expiresAtMs), entropy: Buffer.from(entropy) });
          expect(offset).toBe(32);
          expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
          expect(ours).toStrictEqual(theirs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('issues challenges that altcha-lib solves and verifies, and that checkCaptcha accepts', async () => {
    await fc.assert(
      fc.asyncProperty(secret, fc.integer({ min: 0, max: 400 }), async (signatureSecret, counter) => {
        const secrets = { signature: signatureSecret, keySignature: `${signatureSecret}:key` };
        const challenge = issueChallenge({ secrets, counter, cost: 1, expiresAt: new Date(Date.now() + 300_000) });
        expect(Object.keys(challenge.parameters)).toEqual(['algorithm', 'cost', 'expiresAt', 'keyLength', 'keyPrefix', 'keySignature', 'nonce', 'salt']);
        expect(challenge.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1, keyLength: 32 });
        expect(challenge.parameters.nonce).toMatch(/^[0-9a-f]{32}$/);
        expect(challenge.parameters.salt).toMatch(/^[0-9a-f]{32}$/);
        expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
        // What the browser receives is JSON: solve what went over the wire.
        const wire = JSON.parse(JSON.stringify(challenge)) as Challenge;
        const solution = await solveChallenge({ challenge: wire, deriveKey });
        expect(solution?.counter).toBe(counter);
        const payload = { challenge: wire, solution: { counter: solution!.counter, derivedKey: solution!.derivedKey } } as CaptchaPayload;
        const verified = await verifySolution({
          challenge: wire,
          solution: payload.solution as Solution,
          deriveKey,
          hmacSignatureSecret: secrets.signature,
          hmacKeySignatureSecret: secrets.keySignature,
        });
        expect(verified.verified).toBe(true);
        // And without the key signature's shortcut: the library derives the key again from the counter.
        const rederived = await verifySolution({ challenge: wire, solution: payload.solution as Solution, deriveKey, hmacSignatureSecret: secrets.signature });
        expect(rederived.verified).toBe(true);
        expect(checkCaptcha(payload, secrets)).toBe('verified');
        expect(checkCaptcha(payload, { ...secrets, signature: `${secrets.signature}x` })).toBe('invalid');
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a counter or a cost altcha-lib would refuse', () => {
    const base = { secrets: SECRETS, cost: 1, expiresAt: new Date(Date.now() + 1000) };
    for (const counter of [-1, 1.5, 2 ** 32, Number.NaN]) expect(() => issueChallenge({ ...base, counter })).toThrow(RangeError);
    for (const cost of [0, -1, 1.5]) expect(() => issueChallenge({ ...base, counter: 1, cost })).toThrow(RangeError);
    for (const expiresAt of [new Date(0), new Date(Number.NaN)]) expect(() => issueChallenge({ ...base, counter: 1, expiresAt })).toThrow(RangeError);
  });
});
