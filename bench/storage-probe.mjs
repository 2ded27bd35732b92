#!/usr/bin/env node
// What a commit waits for, measured beside each run of bench/run.mjs in a process of its own: every 20 ms one 8 KiB
// write and fdatasync of the file named on the command line (PostgreSQL's WAL flush at commit is the same system
// call). On SIGTERM it prints one JSON line of [ms since its start, ms the sync took] pairs, which bench/run.mjs sums
// up, so that a p99 missed at a constant rate can be told apart from a disk that stopped answering
// (docs/PERFORMANCE.md, seventh round). It imports nothing of the benchmark's: it starts beside a run that is timed.

import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';

const file = process.argv[2];
const fd = openSync(file, 'w');
const page = Buffer.alloc(8192, 1);
const started = performance.now();
const syncs = [];

const timer = setInterval(() => {
  const at = performance.now();
  writeSync(fd, page, 0, page.length, 0);
  fdatasyncSync(fd);
  syncs.push([Math.round(at - started), performance.now() - at]);
}, 20);

process.once('SIGTERM', () => {
  clearInterval(timer);
  closeSync(fd);
  rmSync(file, { force: true });
  process.stdout.write(`${JSON.stringify(syncs)}\n`);
  process.exit(0);
});
