import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { accounts, authoriserDevices, coordinateCards, members, passwordClientGuards, trustedDevices, unknownPayerAttempts } from '../db/schema';

export type MemberRow = typeof members.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;
export type CoordinateCardRow = typeof coordinateCards.$inferSelect;

/** A member's account and factors (at most one of each); a card or active authoriser device that is not there is null. */
export interface AccountAndFactors {
  account: Pick<AccountRow, 'id' | 'numeroCuenta'> | null;
  card: { id: string; blockedAt: Date | null } | null;
  device: { id: string } | null;
}

export async function findMemberByRut(db: DbOrTx, rut: string): Promise<MemberRow | null> {
  const [row] = await db.select().from(members).where(eq(members.rut, rut));
  return row ?? null;
}

export async function findMemberById(db: DbOrTx, id: string): Promise<MemberRow | null> {
  const [row] = await db.select().from(members).where(eq(members.id, id));
  return row ?? null;
}

/** Where a RUT's wrong passwords are counted: on the member, or for a RUT with no online password, apart. */
type GuardTable = typeof members | typeof unknownPayerAttempts | typeof passwordClientGuards;

/** A RUT's wrong-password state, as of the database's clock. */
export interface PasswordGuard {
  failures: number;
  /** Blocked now: by wrong passwords until `lockedUntil`, or by an operator or the core system until lifted. */
  blocked: boolean;
  /** Blocks in a row, and whether the last one began within a day (the next one then lasts twice as long). */
  locks: number;
  blockedWithinDay: boolean;
  /** Blocked by wrong passwords (a block that lifts by itself), not by an operator or the core system. */
  blockedByGuesses: boolean;
}

const NO_GUARD: PasswordGuard = { failures: 0, blocked: false, locks: 0, blockedWithinDay: false, blockedByGuesses: false };

const guardOf = (t: GuardTable) => ({
  failures: t.passwordFailures,
  blocked: sql<boolean>`(${t.passwordBlockedAt} is not null and (${t.passwordLockedUntil} is null or ${t.passwordLockedUntil} > now()))`,
  blockedByGuesses: sql<boolean>`coalesce(${t.passwordLockedUntil} > now(), false)`,
  locks: t.passwordLocks,
  blockedWithinDay: sql<boolean>`coalesce(${t.passwordBlockedAt} > now() - interval '1 day', false)`,
});

/**
 * The payer locked for a login, with its password guard. Only the counts change: 'no key update' lets other
 * transactions' foreign-key checks on the member (a payment of the member's products, a selection, a challenge)
 * through instead of deadlocking.
 */
export async function lockMemberByRut(tx: Tx, rut: string): Promise<(MemberRow & { guard: PasswordGuard }) | null> {
  const [row] = await tx.select({ member: members, guard: guardOf(members) }).from(members).where(eq(members.rut, rut)).for('no key update');
  return row ? { ...row.member, guard: row.guard } : null;
}

/** The member with its password guard, without locks (call 4 checks the password before taking them). */
export async function findMemberWithGuard(db: DbOrTx, rut: string): Promise<(MemberRow & { guard: PasswordGuard }) | null> {
  const [row] = await db.select({ member: members, guard: guardOf(members) }).from(members).where(eq(members.rut, rut));
  return row ? { ...row.member, guard: row.guard } : null;
}

/** The guard of a RUT with no online password, unlocked: a clean one when it never gave a wrong password. */
export async function unknownPayerGuard(db: DbOrTx, rut: string): Promise<PasswordGuard> {
  const [row] = await db.select(guardOf(unknownPayerAttempts)).from(unknownPayerAttempts).where(eq(unknownPayerAttempts.rut, rut));
  return row ?? NO_GUARD;
}

/** The guard of a RUT with no online password, locked (made on its first wrong password). */
export async function lockUnknownPayerGuard(tx: Tx, rut: string): Promise<PasswordGuard> {
  await tx.insert(unknownPayerAttempts).values({ rut }).onConflictDoNothing();
  const [row] = await tx.select(guardOf(unknownPayerAttempts)).from(unknownPayerAttempts).where(eq(unknownPayerAttempts.rut, rut)).for('update');
  return row!;
}

/** Counts a wrong password; `lock` blocks the password for that long, as the `locks`-th block in a row. */
export async function recordWrongPassword(tx: Tx, who: { memberId: string } | { rut: string }, failures: number, lock: { minutes: number; locks: number } | null): Promise<void> {
  const values = {
    passwordFailures: failures,
    ...(lock && { passwordBlockedAt: sql`now()`, passwordLockedUntil: sql`now() + make_interval(mins => ${lock.minutes})`, passwordLocks: lock.locks }),
  };
  if ('memberId' in who) await tx.update(members).set(values).where(eq(members.id, who.memberId));
  else await tx.update(unknownPayerAttempts).set({ ...values, updatedAt: sql`now()` }).where(eq(unknownPayerAttempts.rut, who.rut));
}

/** A right password: the count of failures starts again (the last block's time stays, for the next one's length). */
export async function clearPasswordFailures(tx: Tx, memberId: string): Promise<void> {
  await tx.update(members).set({ passwordFailures: 0 }).where(eq(members.id, memberId));
}

/** A right password from a browser the member signed in from before lifts a block others' guesses caused. */
export async function liftGuessBlock(tx: Tx, memberId: string): Promise<void> {
  await tx.update(members).set({ passwordFailures: 0, passwordBlockedAt: null, passwordLockedUntil: null }).where(eq(members.id, memberId));
}

/** Whether this browser (its cookie's hash) signed in as this RUT with the right password before. */
export async function isTrustedDevice(db: DbOrTx, deviceHash: string, rut: string): Promise<boolean> {
  const [row] = await db.select({ rut: trustedDevices.rut }).from(trustedDevices).where(and(eq(trustedDevices.deviceHash, deviceHash), eq(trustedDevices.rut, rut)));
  return row !== undefined;
}

/** Records (or refreshes) a browser the member signed in from with the right password. */
export async function trustDevice(tx: Tx, deviceHash: string, rut: string): Promise<void> {
  await tx
    .insert(trustedDevices)
    .values({ deviceHash, rut })
    .onConflictDoUpdate({ target: [trustedDevices.deviceHash, trustedDevices.rut], set: { lastSeenAt: sql`now()` } });
}

/** Browsers not seen for `days` are forgotten (the cookie lasts as long). */
export async function pruneTrustedDevices(db: DbOrTx, days: number): Promise<void> {
  await db.delete(trustedDevices).where(sql`${trustedDevices.lastSeenAt} < now() - make_interval(days => ${days})`);
}

/** An operator's unblock: no failures, no block on any client, and the next block is a first one again. */
export async function unblockPasswordOf(tx: Tx, memberId: string): Promise<void> {
  const [row] = await tx.update(members).set({ passwordFailures: 0, passwordBlockedAt: null, passwordLockedUntil: null, passwordLocks: 0 }).where(eq(members.id, memberId)).returning({ rut: members.rut });
  if (row) await tx.delete(passwordClientGuards).where(eq(passwordClientGuards.rut, row.rut));
}

const clientKey = (rut: string, client: string) => and(eq(passwordClientGuards.rut, rut), eq(passwordClientGuards.client, client));
/** A guard that holds failures (a block keeps its three); a login takes the row before it is judged, so clean ones exist. */
const hasFailed = sql`${passwordClientGuards.passwordFailures} > 0`;

/** A RUT's guard on one client, unlocked: a clean one when that client never gave a wrong password for it. */
export async function clientGuard(db: DbOrTx, rut: string, client: string): Promise<PasswordGuard> {
  const [row] = await db.select(guardOf(passwordClientGuards)).from(passwordClientGuards).where(clientKey(rut, client));
  return row ?? NO_GUARD;
}

/** A RUT's guard on one client, locked (made on that client's first wrong password). */
export async function lockClientGuard(tx: Tx, rut: string, client: string): Promise<PasswordGuard> {
  await tx.insert(passwordClientGuards).values({ rut, client }).onConflictDoNothing();
  const [row] = await tx.select(guardOf(passwordClientGuards)).from(passwordClientGuards).where(clientKey(rut, client)).for('update');
  return row!;
}

/** Counts a wrong password of one client for a RUT; `lock` blocks that RUT on that client for that long. */
export async function recordClientWrongPassword(tx: Tx, rut: string, client: string, failures: number, lock: { minutes: number; locks: number } | null): Promise<void> {
  await tx
    .update(passwordClientGuards)
    .set({
      passwordFailures: failures,
      lastFailureAt: sql`now()`,
      ...(lock && { passwordBlockedAt: sql`now()`, passwordLockedUntil: sql`now() + make_interval(mins => ${lock.minutes})`, passwordLocks: lock.locks }),
    })
    .where(clientKey(rut, client));
}

/** A right password on a client: its count starts again (the last block's time stays, for the next one's length). */
export async function clearClientGuard(tx: Tx, rut: string, client: string): Promise<void> {
  await tx.update(passwordClientGuards).set({ passwordFailures: 0 }).where(clientKey(rut, client));
}

/** Other RUTs this client gave a wrong password for within the last hour. */
export async function otherPayersFailedByClient(db: DbOrTx, client: string, rut: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(passwordClientGuards)
    .where(and(eq(passwordClientGuards.client, client), sql`${passwordClientGuards.rut} <> ${rut}`, sql`${passwordClientGuards.lastFailureAt} > now() - interval '1 hour'`, hasFailed));
  return row?.n ?? 0;
}

/** Clients that gave a wrong password for this RUT within the last day. */
export async function clientsFailingFor(tx: Tx, rut: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(passwordClientGuards)
    .where(and(eq(passwordClientGuards.rut, rut), sql`${passwordClientGuards.lastFailureAt} > now() - interval '1 day'`, hasFailed));
  return row?.n ?? 0;
}

/** Client guards with no failure for a day and no block still on: forgotten (called now and then by call 4). */
export async function pruneClientGuards(db: DbOrTx): Promise<void> {
  await db
    .delete(passwordClientGuards)
    .where(sql`${passwordClientGuards.lastFailureAt} < now() - interval '1 day' and (${passwordClientGuards.passwordLockedUntil} is null or ${passwordClientGuards.passwordLockedUntil} < now())`);
}

/** A member has at most one account, one card and one active device: one row, each part null when absent. */
export async function accountAndFactorsOf(db: DbOrTx, memberId: string): Promise<AccountAndFactors> {
  const [row] = await db
    .select({
      account: { id: accounts.id, numeroCuenta: accounts.numeroCuenta },
      // Each part carries its id: Drizzle reads a left-joined part whose columns are all null as absent.
      card: { id: coordinateCards.id, blockedAt: coordinateCards.blockedAt },
      device: { id: authoriserDevices.id },
    })
    .from(members)
    .leftJoin(accounts, eq(accounts.memberId, members.id))
    .leftJoin(coordinateCards, eq(coordinateCards.memberId, members.id))
    .leftJoin(authoriserDevices, and(eq(authoriserDevices.memberId, members.id), isNull(authoriserDevices.revokedAt)))
    .where(eq(members.id, memberId))
    .limit(1);
  return { account: row?.account ?? null, card: row?.card ?? null, device: row?.device ?? null };
}

export async function accountNumberOf(db: DbOrTx, accountId: string): Promise<string | null> {
  const [row] = await db.select({ numeroCuenta: accounts.numeroCuenta }).from(accounts).where(eq(accounts.id, accountId));
  return row?.numeroCuenta ?? null;
}

/** The account locked for a payment: first in the payment's lock order; only the balance changes ('no key update'). */
export async function lockAccount(tx: Tx, id: string): Promise<AccountRow | null> {
  const [row] = await tx.select().from(accounts).where(eq(accounts.id, id)).for('no key update');
  return row ?? null;
}

export async function setAccountBalance(tx: Tx, id: string, saldo: number): Promise<void> {
  await tx.update(accounts).set({ saldo }).where(eq(accounts.id, id));
}

export async function lockCoordinateCard(tx: Tx, memberId: string): Promise<CoordinateCardRow | null> {
  const [row] = await tx.select().from(coordinateCards).where(eq(coordinateCards.memberId, memberId)).for('update');
  return row ?? null;
}

export async function setCardFailures(tx: Tx, cardId: string, failures: number, blocked: boolean): Promise<void> {
  await tx
    .update(coordinateCards)
    .set({ failures, blockedAt: blocked ? sql`now()` : null })
    .where(eq(coordinateCards.id, cardId));
}

/** The coordinate card of the member with this RUT (the sandbox shows demo cards). */
export async function coordinateCardOfRut(db: DbOrTx, rut: string): Promise<Pick<CoordinateCardRow, 'cells' | 'blockedAt'> | null> {
  const [row] = await db
    .select({ cells: coordinateCards.cells, blockedAt: coordinateCards.blockedAt })
    .from(coordinateCards)
    .innerJoin(members, eq(members.id, coordinateCards.memberId))
    .where(eq(members.rut, rut));
  return row ?? null;
}

/** The nightly load's member, by RUT, locked until the load's row commits: what it holds now, or null when new. */
export async function lockMemberForLoad(tx: Tx, rut: string): Promise<Pick<MemberRow, 'id' | 'name' | 'email'> | null> {
  // Only name and e-mail change: 'no key update' lets payments' foreign-key checks on the member through.
  const [row] = await tx.select({ id: members.id, name: members.name, email: members.email }).from(members).where(eq(members.rut, rut)).for('no key update');
  return row ?? null;
}

/** A member the nightly load brings: its id, or null when another load inserted the RUT meanwhile. */
export async function insertLoadedMember(tx: Tx, values: { rut: string; name: string; email: string | null }): Promise<string | null> {
  const [row] = await tx.insert(members).values(values).onConflictDoNothing({ target: members.rut }).returning({ id: members.id });
  return row?.id ?? null;
}

export async function setMemberContact(tx: Tx, id: string, values: { name: string; email: string | null }): Promise<void> {
  await tx.update(members).set(values).where(eq(members.id, id));
}

export async function ownerOfAccount(db: DbOrTx, numeroCuenta: string): Promise<string | null> {
  const [row] = await db.select({ memberId: accounts.memberId }).from(accounts).where(eq(accounts.numeroCuenta, numeroCuenta));
  return row?.memberId ?? null;
}

export async function upsertAccount(tx: Tx, values: { memberId: string; numeroCuenta: string; saldo: number }): Promise<void> {
  await tx.insert(accounts).values(values).onConflictDoUpdate({ target: accounts.numeroCuenta, set: { saldo: values.saldo } });
}

/** Clears a card's failures and block; false when the member has no card. */
export async function unblockCardOf(tx: Tx, memberId: string): Promise<boolean> {
  const rows = await tx.update(coordinateCards).set({ failures: 0, blockedAt: null }).where(eq(coordinateCards.memberId, memberId)).returning({ id: coordinateCards.id });
  return rows.length > 0;
}

/** The member's coordinate card as an operator sees it: blocked or not (null: no card). */
export async function cardStateOf(db: DbOrTx, memberId: string): Promise<{ blockedAt: Date | null; failures: number } | null> {
  const [card] = await db.select({ blockedAt: coordinateCards.blockedAt, failures: coordinateCards.failures }).from(coordinateCards).where(eq(coordinateCards.memberId, memberId));
  return card ?? null;
}
