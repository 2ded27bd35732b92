import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from './client';

interface Entry {
  idx: number;
  when: number;
  tag: string;
}

describe('the migrations journal', () => {
  const { entries } = JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: Entry[] };

  // Drizzle's migrator applies only what is newer than the last migration applied: a time out of order is skipped.
  it('lists each migration later than the one before it, in order, with its file present', () => {
    entries.forEach((entry, i) => {
      expect(entry.idx).toBe(i);
      if (i > 0) expect(entry.when).toBeGreaterThan(entries[i - 1]!.when);
      expect(() => readFileSync(join(migrationsFolder(), `${entry.tag}.sql`))).not.toThrow();
    });
  });
});
