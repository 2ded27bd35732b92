import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

/** Each machine's table (its Drizzle name) and the one function that may write its status column. */
const TRANSITIONS: Record<string, string> = {
  transactions: 'moveTransaction',
  transactionItems: 'moveItem',
  authorizations: 'moveAuthorization',
  operatorChanges: 'moveOperatorChange',
  coreOperations: 'moveOperation',
  webpayAttempts: 'moveAttempt',
  dayCloses: 'moveDayClose',
};
const SQL_NAMES: Record<string, string> = {
  transactions: 'transactions',
  transactionItems: 'transaction_items',
  authorizations: 'authorizations',
  operatorChanges: 'operator_changes',
  coreOperations: 'core_operations',
  webpayAttempts: 'webpay_attempts',
  dayCloses: 'day_closes',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function enclosingFunction(node: ts.Node): string {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name) return n.name.getText();
    if (ts.isVariableDeclaration(n) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) return n.name.getText();
  }
  return '(top level)';
}

/** The table a `.set(…)`/`.values(…)` call writes: the argument of the `.update(…)`/`.insert(…)` before it. */
function tableOf(call: ts.CallExpression): string | null {
  let target: ts.Expression = (call.expression as ts.PropertyAccessExpression).expression;
  while (ts.isCallExpression(target) && ts.isPropertyAccessExpression(target.expression)) {
    const method = target.expression.name.text;
    if ((method === 'update' || method === 'insert') && target.arguments[0]) return target.arguments[0].getText();
    target = target.expression.expression;
  }
  return null;
}

/** Whether an object written to a row may set `status`: it names it, or spreads something that might. */
function mayWriteStatus(arg: ts.Expression | undefined): boolean {
  if (!arg) return false;
  if (!ts.isObjectLiteralExpression(arg)) return true;
  return arg.properties.some((p) => ts.isSpreadAssignment(p) || p.name?.getText() === 'status');
}

/** The places in one file that write a machine's status column other than through its transition function. */
function violationsIn(file: string, text: string): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const where = (node: ts.Node) => `${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const table = method === 'set' || method === 'values' ? tableOf(node) : null;
      if (table && TRANSITIONS[table]) {
        const inTransition = method === 'set' && enclosingFunction(node) === TRANSITIONS[table] && file.includes('repositories');
        // A new row starts in the state the column's default gives; only the transition function moves it.
        if (!inTransition && (method === 'set' ? mayWriteStatus(node.arguments[0]) : hasStatus(node.arguments[0]))) found.push(`${where(node)} ${table}`);
      }
    }
    // Raw SQL that updates a machine's table bypasses the table of moves just as well.
    if (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      for (const name of Object.values(SQL_NAMES)) {
        if (new RegExp(`update\\s+"?${name}"?\\s+set`, 'i').test(node.getText())) found.push(`${where(node)} SQL update of ${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Whether a new row is written in a named state (its types keep `status` out of what callers pass). */
function hasStatus(arg: ts.Expression | undefined): boolean {
  let named = false;
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText() === 'status') named = true;
    ts.forEachChild(node, visit);
  };
  if (arg) visit(arg);
  return named;
}

describe('state machines', () => {
  it('have their status written only by their one transition function', () => {
    expect(sourceFiles(SRC).flatMap((file) => violationsIn(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('find a status written any other way (the check itself works)', () => {
    const file = join(SRC, 'repositories', 'transaction-repository.ts');
    const text = readFileSync(file, 'utf8');
    const renamed = text.replace('export async function moveTransaction(', 'export async function closeQuietly(');
    expect(renamed).not.toBe(text);
    expect(violationsIn(file, renamed)).toHaveLength(1);
    const raw = `${text}\nexport const sneak = sql\`update transactions set status = 'paid'\`;\n`;
    expect(violationsIn(file, raw)).toEqual([expect.stringContaining('SQL update of transactions')]);
  });
});
