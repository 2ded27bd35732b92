import { sha, solveChallenge, solveChallengeWorkers, type Challenge, type Solution } from 'altcha/lib';
// A Vite worker import: the worker is emitted as a file of our own origin, so the CSP (script-src 'self') holds.
import ShaWorker from 'altcha/workers/sha?worker';
import { ApiError } from './api-client';

/** Issues ALTCHA challenges (apps/api routes/api/captcha.ts). */
export const CAPTCHA_CHALLENGE_PATH = '/api/captcha/challenge';

// Well past the few hundred milliseconds a phone needs; the challenge itself expires after five minutes.
const SOLVE_TIMEOUT_MS = 60_000;
const MAX_WORKERS = 4;

/** The challenge could not be solved (a timeout, or an algorithm this browser cannot run). */
export class CaptchaError extends Error {
  override readonly name = 'CaptchaError';
}

/**
 * The invisible captcha: fetches a fresh challenge, solves its proof of work off the main thread and resolves to
 * the token the server expects in the Authorization header, base64(JSON.stringify({challenge, solution})).
 * A solution is spent by the call that carries it (the server answers 482 to a replay): call this once per call.
 * Rejects with ApiError when the challenge cannot be fetched, with CaptchaError when it cannot be solved.
 */
export async function startCaptcha(): Promise<string> {
  const challenge = await fetchChallenge();
  const solution = await solve(challenge);
  if (!solution) throw new CaptchaError('The captcha challenge was not solved in time');
  return toBase64(JSON.stringify({ challenge, solution }));
}

async function fetchChallenge(): Promise<Challenge> {
  let response: Response;
  try {
    response = await fetch(CAPTCHA_CHALLENGE_PATH, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (cause) {
    throw new ApiError('network', CAPTCHA_CHALLENGE_PATH, null, null, { cause });
  }
  if (!response.ok) throw new ApiError('http', CAPTCHA_CHALLENGE_PATH, response.status);
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    throw new ApiError('parse', CAPTCHA_CHALLENGE_PATH, response.status, null, { cause });
  }
  if (!isChallenge(body)) throw new ApiError('parse', CAPTCHA_CHALLENGE_PATH, response.status);
  return body;
}

function isChallenge(body: unknown): body is Challenge {
  if (typeof body !== 'object' || body === null) return false;
  const parameters = (body as { parameters?: unknown }).parameters;
  if (typeof parameters !== 'object' || parameters === null) return false;
  const p = parameters as Record<string, unknown>;
  return (
    typeof p['algorithm'] === 'string' &&
    typeof p['nonce'] === 'string' &&
    typeof p['salt'] === 'string' &&
    typeof p['keyPrefix'] === 'string' &&
    typeof p['cost'] === 'number'
  );
}

async function solve(challenge: Challenge): Promise<Solution | null> {
  // Only the SHA family is bundled: it is what the server issues, and the smallest worker.
  if (!challenge.parameters.algorithm.toUpperCase().startsWith('SHA-')) {
    throw new CaptchaError(`Unsupported captcha algorithm ${challenge.parameters.algorithm}`);
  }
  if (typeof Worker !== 'undefined') {
    try {
      return await solveChallengeWorkers({
        challenge,
        concurrency: Math.min(MAX_WORKERS, Math.max(1, navigator.hardwareConcurrency || 1)),
        createWorker: () => new ShaWorker({ name: 'captcha' }),
        timeout: SOLVE_TIMEOUT_MS,
      });
    } catch {
      // A browser or policy that refuses workers: solve here instead, a fraction of a second of work.
    }
  }
  return solveChallenge({ challenge, deriveKey: sha.deriveKey, timeout: SOLVE_TIMEOUT_MS });
}

function toBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
