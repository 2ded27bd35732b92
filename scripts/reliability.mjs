// npm run test:reliability: the reliability suite (apps/api/test/reliability) at full size, on PGlite and on a
// PostgreSQL server, then one table of what it did. `npm test` runs the same files with small defaults.
//
// Sizes can be overridden: RELIABILITY_FUZZ_RUNS, RELIABILITY_PAYERS, RELIABILITY_KILL_ROUNDS,
// RELIABILITY_KILL_PAYERS, RELIABILITY_OUTAGE_SECONDS. DATABASE_URL defaults to the local test server.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pago-reliability-'));
const report = join(dir, 'figures.jsonl');

const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  RELIABILITY_FULL: '1',
  RELIABILITY_FUZZ_RUNS: process.env.RELIABILITY_FUZZ_RUNS ?? '500',
  RELIABILITY_PAYERS: process.env.RELIABILITY_PAYERS ?? '200',
  RELIABILITY_KILL_ROUNDS: process.env.RELIABILITY_KILL_ROUNDS ?? '5',
  RELIABILITY_KILL_PAYERS: process.env.RELIABILITY_KILL_PAYERS ?? '60',
  RELIABILITY_OUTAGE_SECONDS: process.env.RELIABILITY_OUTAGE_SECONDS ?? '5',
  RELIABILITY_REPORT: report,
};

const started = Date.now();
console.log(
  `Reliability suite: ${3 * Number(env.RELIABILITY_FUZZ_RUNS)} hostile inputs per endpoint, ${env.RELIABILITY_PAYERS} concurrent payers, ` +
    `${env.RELIABILITY_KILL_ROUNDS} SIGKILL rounds of ${env.RELIABILITY_KILL_PAYERS} payers, ${env.RELIABILITY_OUTAGE_SECONDS} s outages; ` +
    `PostgreSQL at ${env.DATABASE_URL.replace(/\/\/[^@]*@/, '//…@')}\n`,
);
const vitest = spawnSync(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--project', 'api', 'apps/api/test/reliability'], {
  cwd: ROOT,
  env,
  stdio: 'inherit',
});
const seconds = Math.round((Date.now() - started) / 1000);

const rows = existsSync(report)
  ? readFileSync(report, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(dir, { recursive: true, force: true });

// One line per section and database, summed.
const groups = new Map();
for (const r of rows) {
  const key = `${r.section}|${r.database ?? ''}`;
  const g = groups.get(key) ?? { section: r.section, database: r.database ?? '', inputs: 0, faults: 0, served: 0, e5xx: 0, paid: 0, violations: 0, seconds: 0, notes: [] };
  g.inputs += r.inputsTried ?? 0;
  g.faults += r.faultsInjected ?? 0;
  g.served += r.requestsServed ?? 0;
  g.e5xx += r.responses5xx ?? 0;
  g.paid += r.paymentsPaid ?? 0;
  g.violations += r.invariantViolations ?? 0;
  g.seconds += r.seconds ?? 0;
  if (r.notes) g.notes.push(r.notes);
  groups.set(key, g);
}
const lines = [...groups.values()];
const total = lines.reduce(
  (t, g) => ({ inputs: t.inputs + g.inputs, faults: t.faults + g.faults, served: t.served + g.served, e5xx: t.e5xx + g.e5xx, paid: t.paid + g.paid, violations: t.violations + g.violations }),
  { inputs: 0, faults: 0, served: 0, e5xx: 0, paid: 0, violations: 0 },
);

const header = ['section', 'database', 'inputs tried', 'faults injected', 'requests served', '5xx answers', 'payments paid', 'invariant violations'];
const table = [
  header,
  ...lines.map((g) => [g.section, g.database, g.inputs, g.faults, g.served, g.e5xx, g.paid, g.violations].map(String)),
  ['total', '', total.inputs, total.faults, total.served, total.e5xx, total.paid, total.violations].map(String),
];
const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
const fmt = (row) => `| ${row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;

console.log('\nReliability summary');
console.log(fmt(table[0]));
console.log(`|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
for (const row of table.slice(1)) console.log(fmt(row));
console.log('');
for (const g of lines) for (const note of g.notes) console.log(`- ${g.section}${g.database ? ` (${g.database})` : ''}: ${note}`);
console.log(`\nMachine: ${cpus().length} cores, Node ${process.version}. Wall time ${Math.floor(seconds / 60)} min ${seconds % 60} s.`);
console.log(`Tests: ${vitest.status === 0 ? 'all passed' : 'FAILED'}. Invariant violations: ${total.violations}.`);

process.exit(vitest.status === 0 && total.violations === 0 && rows.length > 0 ? 0 : 1);
