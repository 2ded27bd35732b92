#!/usr/bin/env node
// Two builds' bench/run.mjs summaries side by side, as the table of docs/PERFORMANCE.md: each flow's capacity before
// and after with their ratio, the after build's p99 at 70% against its flow's target, its non-2xx answers and its
// headroom over the peak hour of the demand model. Exits 1 when an absolute target is missed.
//
//   node bench/compare.mjs <before summary.json> <after summary.json>

import { readFileSync } from 'node:fs';
import { FLOWS, PEAK_PER_SECOND } from './lib.mjs';

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: node bench/compare.mjs <before summary.json> <after summary.json>');
  process.exit(2);
}
const before = JSON.parse(readFileSync(beforeFile, 'utf8'));
const after = JSON.parse(readFileSync(afterFile, 'utf8'));

let missed = false;
const verdict = (ok) => {
  missed ||= !ok;
  return ok ? 'ok' : '**missed**';
};

console.log(`before: ${before.apiServer} (${before.date}); after: ${after.apiServer} (${after.date})\n`);
console.log('| flow | capacity before | capacity after | after/before | p99 at 70% after (target) | non-2xx | headroom after (capacity / peak) |');
console.log('|---|---|---|---|---|---|---|');
for (const [flow, { title, unit, p99TargetMs }] of Object.entries(FLOWS)) {
  const [b, a] = [before.results[flow], after.results[flow]];
  if (!b || !a) continue;
  const digits = unit === 'payments/s' ? 1 : 0;
  const ratio = a.capacity / b.capacity;
  console.log(
    `| ${title} | ${b.capacity.toFixed(digits)} ${unit} | ${a.capacity.toFixed(digits)} ${unit} | ${(ratio * 100).toFixed(0)}% | ` +
      `${+a.p99.toFixed(1)} ms (< ${p99TargetMs}) ${verdict(a.p99 < p99TargetMs)} | ${a.non2xx} ${verdict(a.clean)} | ${(a.capacity / PEAK_PER_SECOND[flow]).toFixed(1)}× |`,
  );
}
const flows = Object.keys(FLOWS).filter((flow) => after.results[flow]);
if (flows.length === Object.keys(FLOWS).length) {
  // The flows share the replica's CPU at the peak: the share of it each needs adds up.
  const combined = 1 / flows.reduce((sum, flow) => sum + PEAK_PER_SECOND[flow] / after.results[flow].capacity, 0);
  console.log(`\nheadroom after, all flows at their peak rates at once: ${combined.toFixed(1)}×`);
}
if (missed) process.exitCode = 1;
