import { WEBPAY_ATTEMPT_MOVES, type WebpayAttemptStatus } from '@pago/domain/payment-states';
import { sql } from 'drizzle-orm';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { DATABASE_KINDS, openTestDatabase } from '../../test/support/test-app';
import { moveAttempt } from './webpay-attempt-repository';

// Every change of a Webpay attempt's status goes through moveAttempt (decision 044): the table's moves, the expected
// state in the WHERE, the answer returned. These tests fail when a write goes around it.

const SRC = new URL('..', import.meta.url).pathname;
const REPOSITORY = join(SRC, 'repositories', 'webpay-attempt-repository.ts');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** The repository's exported functions, each with its text. */
function functionsOf(text: string): { name: string; body: string }[] {
  const starts = [...text.matchAll(/^export (?:async )?function (\w+)/gm)];
  return starts.map((m, i) => ({ name: m[1]!, body: text.slice(m.index, starts[i + 1]?.index ?? text.length) }));
}

describe('writes of webpay_attempts.status', () => {
  it('are made by the attempt repository only, and never in raw SQL', () => {
    const offenders = sources(SRC).filter((path) => {
      const text = readFileSync(path, 'utf8');
      return /update\s+"?webpay_attempts"?/i.test(text) || (path !== REPOSITORY && /\.(update|insert)\(webpayAttempts\)/.test(text));
    });
    expect(offenders.map((p) => p.slice(SRC.length))).toEqual([]);
  });

  it('go through moveAttempt, the intent being the one insert (in creating)', () => {
    const fns = functionsOf(readFileSync(REPOSITORY, 'utf8'));
    const setsStatus = fns.filter((f) => /\.update\(webpayAttempts\)[\s\S]*?\.set\(\{[^}]*\bstatus\b/.test(f.body)).map((f) => f.name);
    expect(setsStatus).toEqual(['moveAttempt']);
    const inserts = fns.filter((f) => f.body.includes('.insert(webpayAttempts)'));
    expect(inserts.map((f) => f.name)).toEqual(['insertIntent']);
    expect(inserts[0]!.body).toContain("status: 'creating'");
  });
});

describe.each(DATABASE_KINDS)('moveAttempt and the status CHECK on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('has a CHECK that allows exactly the states of WEBPAY_ATTEMPT_MOVES', async () => {
    const rows = await database.db.execute<{ def: string }>(
      sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'webpay_attempts_status_chk'`,
    );
    const def = ((rows as unknown as { rows?: { def: string }[] }).rows ?? (rows as unknown as { def: string }[]))[0]!.def;
    const states = [...def.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort();
    expect(states).toEqual(Object.keys(WEBPAY_ATTEMPT_MOVES).sort());
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
