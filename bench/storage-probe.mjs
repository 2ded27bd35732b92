#!/usr/bin/env node
// What a commit waits for, measured beside each run of bench/run.mjs in a process of its own: every 20 ms one 8 KiB
// write and fdatasync of the file named on the command line (PostgreSQL's WAL flush at commit is the same system
// call). On SIGTERM it prints one JSON line with the latencies and the stalls, so that a p99 missed at a constant
// rate can be told apart from a disk that stopped answering (docs/PERFORMANCE.md, seventh round).

import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { quantile } from './lib.mjs';

const STALL_MS = 50;
const file = process.argv[2];
const fd = openSync(file, 'w');
const page = Buffer.alloc(8192, 1);
const started = performance.now();
const latencies = [];
const stalls = [];

const timer = setInterval(() => {
  const at = performance.now();
  writeSync(fd, page, 0, page.length, 0);
  fdatasyncSync(fd);
  const took = performance.now() - at;
  latencies.push(took);
  if (took >= STALL_MS) stalls.push([Math.round(at - started), Math.round(took)]);
}, 20);

process.once('SIGTERM', () => {
  clearInterval(timer);
  closeSync(fd);
  rmSync(file, { force: true });
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q) => quantile(sorted, q);
  process.stdout.write(
    `${JSON.stringify({ syncs: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1), stallMs: STALL_MS, stalls, stalledMs: stalls.reduce((sum, [, ms]) => sum + ms, 0) })}\n`,
  );
  process.exit(0);
});
