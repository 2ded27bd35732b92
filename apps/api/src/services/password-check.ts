import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { PASSWORD_HASH_OPTIONS } from '../db/password';
import { textMail, type Mail } from './mail-service';

// The online password's rules for call 4 (own-account-service.ts): argon2id checks and how long a block lasts.

/** How long a browser the member signed in from stays known without signing in again (decision 041). */
export const TRUSTED_DEVICE_DAYS = 180;

/** Consecutive wrong passwords that block the online password (45203016). */
export const MAX_PASSWORD_FAILURES = 3;

/** The `locks`-th block in a row lasts `baseMinutes` doubled for each block before it, and at most a day. */
export function passwordLockMinutes(locks: number, baseMinutes: number): number {
  return Math.min(baseMinutes * 2 ** Math.min(Math.max(locks, 1) - 1, 16), 24 * 60);
}

let dummyHash: Promise<string> | null = null;
/** An argon2id verification that takes as long as a real one and never matches: for a RUT with no password. */
export async function dummyCheck(clave: string): Promise<false> {
  dummyHash ??= hash(randomBytes(16), PASSWORD_HASH_OPTIONS);
  await passwordMatches(await dummyHash, clave);
  return false;
}

/** A hash that cannot be read (not argon2's format) matches no password. */
export function passwordMatches(hash: string, clave: string): Promise<boolean> {
  return verify(hash, clave).catch(() => false);
}

/**
 * Clients (addresses) that must have failed for a RUT within a day before its password is blocked on every client
 * (decision 032): one client, however many tries, only ever blocks itself.
 */
export const MIN_CLIENTS_FOR_GLOBAL_BLOCK = 3;

/** The e-mail telling a member their online password was blocked everywhere by guesses from several places. */
export function globalBlockMail(to: string, cooperative: string, clients: number, minutes: number): Mail {
  const hours = minutes >= 120 ? `${Math.round(minutes / 60)} horas` : `${minutes} minutos`;
  return textMail(to, `${cooperative}: tu clave de internet fue bloqueada`, [
    `${cooperative} - Pago Online`,
    'Por seguridad tu clave de internet ha sido bloqueada.',
    `Se ingresó una clave incorrecta para tu RUT desde ${clients} lugares distintos. La clave se desbloqueará sola en ${hours}.`,
    'En el navegador donde ya pagaste con tu clave puedes seguir ingresando: al hacerlo, la clave se desbloquea.',
    'Si no fuiste tú, te recomendamos cambiar tu clave de internet y contactarnos.',
  ]);
}
