import { readFileSync } from 'node:fs';
import { AUTH_PATH, INIT_MALL_PATH } from '@pago/domain/call-pagoexpress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from './support/test-app';

// The alert rules (ops/prometheus/alerts.yml) name metrics and route patterns: these must be what the API exports,
// or an alert watches a series that never exists and stays quiet for ever.
const rules = (
  parse(readFileSync(new URL('../../../ops/prometheus/alerts.yml', import.meta.url), 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] }
).groups.flatMap((g) => g.rules);

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);
/** Series Prometheus makes itself for each target. */
const FROM_PROMETHEUS = new Set(['up']);

/** The metric names a PromQL expression selects: identifiers that are not functions, keywords, labels or durations. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...bare.matchAll(/(?<![\w.:])[a-zA-Z_:][\w:]*(?![\w:])(?!\s*\()/g)].map((m) => m[0]);
  return [...new Set(names.filter((n) => !KEYWORDS.has(n.toLowerCase())))];
}

/** The route regexes of a rule (`route=~"…"`), as Prometheus applies them: anchored at both ends. */
function routeMatchers(expr: string): { regex: RegExp; negated: boolean }[] {
  return [...expr.matchAll(/route\s*(=~|!~)\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => ({ regex: new RegExp(`^(?:${m[2]!})$`), negated: m[1] === '!~' }));
}

describe('the alert rules against the API', () => {
  let t: TestApp;
  let exported: Map<string, string>;
  beforeAll(async () => {
    t = await startTestApp('pglite', { config: { webDist: undefined } });
    // A member call and an operator call, so the request histogram has series with their route labels.
    await t.app.inject({ method: 'POST', url: '/prod/parametro/consultar', payload: {} });
    await t.app.inject({ method: 'GET', url: '/admin/tokens', headers: { authorization: 'Bearer nobody' } });
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    exported = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  });
  afterAll(() => t.close());

  it('reads the metric names out of an expression', () => {
    expect(metricNames('time() - max by (instance, job) (a_b{x="y"} or on (instance) c:d[5m] * 0) > 3 * 3600 and bool e')).toEqual(['a_b', 'c:d', 'e']);
    expect(metricNames('histogram_quantile(0.99, sum by (route, le) (rate(h_bucket{route=~"/a/.+"}[5m]))) > 0.5')).toEqual(['h_bucket']);
  });

  it('name only metrics the API exports (a histogram by its _bucket, _count or _sum)', () => {
    expect(exported.size).toBeGreaterThan(10);
    for (const rule of rules) {
      for (const name of metricNames(rule.expr)) {
        if (FROM_PROMETHEUS.has(name)) continue;
        const histogram = /^(.+)_(bucket|count|sum)$/.exec(name);
        const known = exported.has(name) || (histogram !== null && exported.get(histogram[1]!) === 'histogram');
        expect(known, `${rule.alert}: ${name} is not in /metrics`).toBe(true);
      }
    }
  });

  it("select the member calls' route labels, and not the operator's", async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const routes = new Set([...text.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]+)"/gm)].map((m) => m[1]!));
    expect(routes).toContain('/prod/parametro/consultar');
    expect(routes).toContain('/admin/tokens');
    const errors = rules.find((r) => r.alert === 'PagoOnlineMemberCallErrors')!;
    const selects = (expr: string, route: string) => routeMatchers(expr).every((m) => m.regex.test(route) !== m.negated);
    expect(selects(errors.expr, '/prod/parametro/consultar')).toBe(true);
    expect(selects(errors.expr, INIT_MALL_PATH)).toBe(true);
    expect(selects(errors.expr, '/admin/tokens')).toBe(false);
    // The calls that wait for Webpay have their own latency alert, and the others' leaves them out.
    const slow = rules.find((r) => r.alert === 'PagoOnlineMemberCallSlow')!;
    const webpaySlow = rules.find((r) => r.alert === 'PagoOnlineWebpayCallSlow')!;
    for (const route of [INIT_MALL_PATH, '/api/pagoexpress/webpay/return']) {
      expect(t.app.hasRoute({ method: 'POST', url: route }), route).toBe(true);
      expect(selects(slow.expr, route), route).toBe(false);
      expect(selects(webpaySlow.expr, route), route).toBe(true);
    }
    expect(selects(slow.expr, AUTH_PATH)).toBe(true);
    expect(selects(webpaySlow.expr, AUTH_PATH)).toBe(false);
  });
});
