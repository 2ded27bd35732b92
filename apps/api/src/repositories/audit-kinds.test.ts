import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AUDIT_EVENT_WORDS } from '@pago/domain/state-words';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..');
const DOTTED = /'([a-z]+(?:\.[a-z]+)+)'/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The text of each call `name(…)`, by its parentheses. */
function calls(text: string, name: RegExp): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(name)) {
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < text.length; end++) {
      if (text[end] === '(') depth++;
      if (text[end] === ')' && --depth === 0) break;
    }
    found.push(text.slice(m.index, end + 1));
  }
  return found;
}

/**
 * Every kind of audit line the API writes, read from its sources: the kinds in each appendAudit (or the authoriser's
 * `audit`) call and every `kind: '…'` given to one. AuditEvent.kind's type refuses the others at compile time; this
 * also names where a kind came from when one lacks words.
 */
function writtenKinds(): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const chunks = [...calls(text, /\b(?:appendAudit|audit)\(/g), ...[...text.matchAll(/kind: [^,}\n]*/g)].map((m) => m[0])];
    for (const chunk of chunks) for (const [, kind] of chunk.matchAll(DOTTED)) kinds.set(kind!, relative(SRC, file));
    for (const [, kind] of text.matchAll(/_KIND = '([a-z.]+)'/g)) kinds.set(kind!, relative(SRC, file));
    for (const [, kind] of text.matchAll(/const MEMBER_[A-Z]+ = '([a-z.]+)'/g)) kinds.set(kind!, relative(SRC, file));
  }
  return kinds;
}

describe('the audit trail in words', () => {
  it('has Spanish words in the console for every kind of line the API writes', () => {
    const kinds = writtenKinds();
    // The scan reads the writes it should: a sample of each way a kind is given.
    for (const known of ['core.debito.fallido', 'core.abono.fallido', 'operador.roles', 'autorizador.enrolado', 'navegador.log', 'importacion.socio.creado', 'webpay.devolucion.manual.rechazada']) {
      expect(kinds.has(known), known).toBe(true);
    }
    const lacking = [...kinds].filter(([kind]) => !Object.hasOwn(AUDIT_EVENT_WORDS, kind)).map(([kind, file]) => `${kind} (${file})`);
    expect(lacking).toEqual([]);
  });
});
