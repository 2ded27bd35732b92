import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app';
import { codeOf } from './flows';
import { injectTarget } from './http';
import { recordFigures } from './settings';

// A Redis outage must not switch the rate limits off: each replica counts alone until Redis is back.

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
const CAPTCHA = '/api/captcha/challenge';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis server of the test's own, in a private directory, keeping nothing on disk. */
function startRedis(port: number, dir: string): ChildProcess {
  return spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
}

describe('rate limits while Redis is down', () => {
  let t: TestApp;
  let redis: ChildProcess | undefined;
  let port: number;
  let dir: string;
  let faults = 0;

  beforeAll(async () => {
    port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'pago-redis-'));
    redis = startRedis(port, dir);
    t = await startTestApp('pglite', { config: { redisUrl: `redis://127.0.0.1:${port}` }, rateLimits: { captchaPerIp: 3 } });
  });
  afterAll(async () => {
    recordFigures({ section: 'attacks', database: 'pglite', faultsInjected: faults });
    await t?.close();
    redis?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const ready = async () => (await t.app.inject({ method: 'GET', url: '/ready' })).json() as { status: string; rateLimits: string };
  const untilReady = (status: string) => expect.poll(async () => (await ready()).status, { timeout: 15_000, interval: 100 }).toBe(status);
  /** Four challenges from one address: the limit is three a minute. */
  const burst = async (ip: string) => {
    const target = injectTarget(t.app, ip, ip);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await target.request({ method: 'GET', url: CAPTCHA }));
    return answers;
  };
  const gauge = async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(/^pago_online_rate_limits_local (\d+)/m.exec(text)?.[1]);
  };

  it('counts in Redis, then in the process while Redis is down, then in Redis again, and /ready says which', async () => {
    await untilReady('ready');
    expect((await burst('10.5.0.1')).map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const shared = new Redis(`redis://127.0.0.1:${port}`);
    expect((await shared.keys('pago-online-rl:*')).length).toBeGreaterThan(0);
    shared.disconnect();

    faults++;
    redis!.kill('SIGKILL');
    await untilReady('degraded');
    expect(await ready()).toEqual({ status: 'degraded', rateLimits: 'local' });
    expect(await gauge()).toBe(1);
    const during = await burst('10.5.0.2');
    expect(during.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(codeOf(during[3]!, 'captchaResponse')).toBe('514');

    redis = startRedis(port, dir);
    await untilReady('ready');
    expect(await gauge()).toBe(0);
    expect((await burst('10.5.0.3')).map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const back = new Redis(`redis://127.0.0.1:${port}`);
    expect((await back.keys('pago-online-rl:*')).some((k) => k.includes('10.5.0.3'))).toBe(true);
    back.disconnect();
  });
});
