import { sha, verifySolution } from 'altcha/lib';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '../test/fetch-stub';
import { isApiError } from './api-client';
import { CAPTCHA_CHALLENGE_PATH, startCaptcha } from './captcha';
import { smallChallenge, TEST_CAPTCHA_SECRET as SECRET } from './captcha-test-challenge';

function decode(token: string) {
  return JSON.parse(atob(token)) as { challenge: Awaited<ReturnType<typeof smallChallenge>>; solution: never };
}

describe('startCaptcha', () => {
  it('fetches a challenge and resolves to base64 of {challenge, solution}, which the server verifies', async () => {
    const challenge = await smallChallenge();
    const fetch = stubFetch(jsonResponse(challenge));
    const token = await startCaptcha();
    expect(fetch.mock.calls[0]?.[0]).toBe(CAPTCHA_CHALLENGE_PATH);
    const payload = decode(token);
    expect(payload.challenge).toEqual(challenge);
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey: sha.deriveKey,
      hmacSignatureSecret: SECRET,
      hmacKeySignatureSecret: `${SECRET}:key`,
    });
    expect(result.verified).toBe(true);
  });

  it('asks for a fresh challenge every time: a solution is single-use', async () => {
    const fetch = stubFetch(jsonResponse(await smallChallenge()), jsonResponse(await smallChallenge()));
    const first = decode(await startCaptcha());
    const second = decode(await startCaptcha());
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(first.challenge.signature).not.toBe(second.challenge.signature);
  });

  it.each([
    ['a network failure', new TypeError('Failed to fetch'), 'network'],
    ['HTTP 429', jsonResponse({ error: 'Too Many Requests' }, 429), 'http'],
    ['an answer that is not a challenge', jsonResponse({ hola: 1 }), 'parse'],
    ['an answer that is not JSON', new Response('<html>', { status: 200 }), 'parse'],
  ])('rejects with an ApiError on %s', async (_label, answer, kind) => {
    stubFetch(answer);
    const error: unknown = await startCaptcha().then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isApiError(error) && error.kind).toBe(kind);
  });
});
