import { AUTHORIZATION_MOVES, CORE_OPERATION_MOVES, ITEM_MOVES, OPERATOR_CHANGE_MOVES, TRANSACTION_MOVES, WEBPAY_ATTEMPT_MOVES, type WebpayAttemptStatus } from '@pago/domain/payment-states';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { DATABASE_KINDS, openTestDatabase } from '../../test/support/test-app';
import { moveAttempt } from './webpay-attempt-repository';

// The columns' CHECK constraints allow exactly their machine's states, and a transition function refuses a move its
// table does not allow before writing (state-moves.test.ts checks that nothing else writes a status).

const CHECKS: [string, Record<string, readonly string[]>][] = [
  ['transactions_status_chk', TRANSACTION_MOVES],
  ['transaction_items_status_chk', ITEM_MOVES],
  ['authorizations_status_chk', AUTHORIZATION_MOVES],
  ['webpay_attempts_status_chk', WEBPAY_ATTEMPT_MOVES],
  ['core_operations_status_chk', CORE_OPERATION_MOVES],
  ['operator_changes_status_chk', OPERATOR_CHANGE_MOVES],
];

describe.each(DATABASE_KINDS)('moveAttempt and the status CHECK on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it.each(CHECKS)('has %s allow exactly the states of its table', async (name, table) => {
    const rows = await database.db.execute<{ def: string }>(sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = ${name}`);
    const def = ((rows as unknown as { rows?: { def: string }[] }).rows ?? (rows as unknown as { def: string }[]))[0]!.def;
    const states = [...def.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort();
    expect(states).toEqual(Object.keys(table).sort());
  });

  it('refuses a move the table does not allow before writing, and answers false when the attempt is not in the expected state', async () => {
    const db = database.db;
    for (const [from, targets] of Object.entries(WEBPAY_ATTEMPT_MOVES) as [WebpayAttemptStatus, readonly WebpayAttemptStatus[]][]) {
      for (const to of Object.keys(WEBPAY_ATTEMPT_MOVES) as WebpayAttemptStatus[]) {
        const move = moveAttempt(db, { buyOrder: 'PO-none' }, from as never, to);
        if (targets.includes(to)) await expect(move).resolves.toBe(false);
        else await expect(move).rejects.toThrow(`move not allowed: ${from} → ${to}`);
      }
    }
  });
});
