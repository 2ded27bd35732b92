#!/usr/bin/env node
// The bare limit of bench/run.mjs for the parameters call: a plain node:http server that reads the request and
// answers the API's own answer, prepared once (the file named by BARE_BODY_FILE). No framework, validation,
// database, logging or security headers: what HTTP alone costs on this machine.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BARE_BODY_FILE ?? '', 'utf8');
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) };

createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, headers);
    response.end(body);
  });
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
