import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

// `npm run test:alerts`: the alert rules as Prometheus loads them (promtool, from Debian's prometheus package, which
// scripts/ensure-test-tools.mjs installs), their tests, and what every alert must carry. The API's tests check the
// metric names (apps/api/test/alert-metrics.test.ts).
const DIR = fileURLToPath(new URL('.', import.meta.url));
const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
const OPERATIONS = fileURLToPath(new URL('../../docs/OPERATIONS.md', import.meta.url));

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface AlertTest {
  alertname: string;
  exp_alerts: unknown[];
}

const rulesFile = parse(readFileSync(join(DIR, 'alerts.yml'), 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
const rules = rulesFile.groups.flatMap((g) => g.rules);
const testFile = parse(readFileSync(join(DIR, 'alerts.test.yml'), 'utf8')) as { tests: { alert_rule_test: AlertTest[] }[] };
const cases = testFile.tests.flatMap((t) => t.alert_rule_test);

function promtool(...args: string[]) {
  const run = spawnSync(PROMTOOL, args, { cwd: DIR, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function promtoolIn(cwd: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, args, { cwd });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchors = new Set(
  readFileSync(OPERATIONS, 'utf8')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => anchor(line.replace(/^#+ /, ''))),
);

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the alert rules', () => {
  it('load in Prometheus: promtool checks the example configuration and the rules it names', () => {
    const run = promtool('check', 'config', 'prometheus.yml');
    expect(run.output).toContain('SUCCESS: 1 rule files found');
    expect(run.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(run.status, run.output).toBe(0);
  });

  // promtool evaluates every test's series: seconds on a quiet machine, more on a loaded one.
  it('pass their tests: promtool test rules', () => {
    const run = promtool('test', 'rules', 'alerts.test.yml');
    expect(run.status, run.output).toBe(0);
    expect(run.output).toContain('SUCCESS');
  }, 60_000);

  it('each carry a severity, a summary, a description and a runbook that is a section of OPERATIONS.md', () => {
    for (const rule of rules) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(page|ticket)$/);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      const url = rule.annotations?.runbook_url ?? '';
      expect(url, rule.alert).toMatch(/^docs\/OPERATIONS\.md#[a-z0-9-]+$/);
      expect(anchors, `${rule.alert}: ${url}`).toContain(url.split('#')[1]);
    }
  });

  it('are each tested firing and staying quiet', () => {
    for (const name of new Set(rules.map((r) => r.alert))) {
      const mine = cases.filter((c) => c.alertname === name);
      expect(mine.some((c) => c.exp_alerts.length > 0), `${name} fires in some test`).toBe(true);
      expect(mine.some((c) => c.exp_alerts.length === 0), `${name} stays quiet in some test`).toBe(true);
    }
  });

  // The tests have teeth: each rule with an expression that never fires, or that fires on anything, fails them.
  it('fail when any one rule is broken', async () => {
    const runs = rules.flatMap((rule, index) =>
      ['vector(0) > 1', 'vector(1)'].map(async (broken) => {
        const dir = mkdtempSync(join(tmpdir(), 'pago-alerts-'));
        scratch.push(dir);
        const mutated = structuredClone(rulesFile);
        mutated.groups.flatMap((g) => g.rules)[index]!.expr = broken;
        writeFileSync(join(dir, 'alerts.yml'), stringify(mutated));
        copyFileSync(join(DIR, 'alerts.test.yml'), join(dir, 'alerts.test.yml'));
        const run = await promtoolIn(dir, 'test', 'rules', 'alerts.test.yml');
        return { what: `rule ${index} (${rule.alert}) as ${broken}`, ...run };
      }),
    );
    for (const run of await Promise.all(runs)) {
      expect(run.status, `${run.what}: ${run.output}`).toBe(1);
      expect(run.output, run.what).toContain('FAILED');
    }
  }, 120_000);
});
