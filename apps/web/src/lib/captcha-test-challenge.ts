import { createChallenge, sha } from 'altcha/lib';

// For tests only (nothing in the app imports it): the web tests stub fetch, so they answer the captcha call with
// a real challenge, signed as the server signs it, small enough to solve at once.

export const TEST_CAPTCHA_SECRET = 'a-secret-known-only-to-the-web-tests-0000';

export function smallChallenge() {
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: 40,
    deriveKey: sha.deriveKey,
    hmacSignatureSecret: TEST_CAPTCHA_SECRET,
    hmacKeySignatureSecret: `${TEST_CAPTCHA_SECRET}:key`,
    expiresAt: new Date(Date.now() + 60_000),
  });
}
