import { createChallenge, solveChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkCaptcha, type CaptchaPayload } from './captcha-check';

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
