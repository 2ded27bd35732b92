import type { FastifyInstance } from 'fastify';
import { Agent, request as httpRequest } from 'node:http';
import type { RequestTally } from './settings';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS' | 'HEAD';
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
  raw: Buffer;
}

/** One way to reach an API: an app in this process (inject) or a server over the network. */
export interface Target {
  readonly name: string;
  request(request: HttpRequest): Promise<HttpResponse>;
  /** The same API as seen from another client address (per-address rate limits count per client). */
  forClient?(address: string): Target;
}

/** remoteAddress: the client's address as the server sees it. */
export function injectTarget(app: FastifyInstance, name = 'inject', remoteAddress?: string): Target {
  return {
    name,
    async request({ method, url, headers, body }) {
      const res = await app.inject({
        method,
        url,
        headers: headers ?? {},
        ...(body === undefined ? {} : { payload: body }),
        ...(remoteAddress ? { remoteAddress } : {}),
      });
      const flat: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : v === undefined ? undefined : String(v);
      return { status: res.statusCode, headers: flat, body: res.body, raw: res.rawPayload };
    },
    forClient: (address) => injectTarget(app, `${name}@${address}`, address),
  };
}

const agents = new Map<string, Agent>();
/** Keep-alive connections per client address, as many browsers would hold. */
function agentFor(localAddress: string | undefined): Agent {
  const key = localAddress ?? '';
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 64, ...(localAddress ? { localAddress } : {}) });
    agents.set(key, agent);
  }
  return agent;
}

/**
 * A real server over HTTP. Every request has a deadline, so a hang is seen as a failure, never waited out.
 * localAddress: the loopback address the connection comes from (127.0.0.0/8 is all loopback on Linux), so the
 * server sees distinct clients without trusting any X-Forwarded-For.
 */
export function fetchTarget(baseUrl: string, name = baseUrl, timeoutMs = 20_000, localAddress?: string): Target {
  const base = new URL(baseUrl);
  return {
    name,
    request({ method, url, headers, body }) {
      return new Promise<HttpResponse>((resolve, reject) => {
        const req = httpRequest(
          { host: base.hostname, port: base.port, method, path: url, headers: headers ?? {}, agent: agentFor(localAddress), timeout: timeoutMs },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', reject);
            res.on('end', () => {
              const raw = Buffer.concat(chunks);
              const flat: Record<string, string | undefined> = {};
              for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : v;
              resolve({ status: res.statusCode ?? 0, headers: flat, body: raw.toString('utf8'), raw });
            });
          },
        );
        req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' })));
        req.on('error', reject);
        req.end(body);
      });
    },
    forClient: (address) => fetchTarget(baseUrl, `${name}@${address}`, timeoutMs, address),
  };
}

/** Counts every answer (and every request that got none) in a tally. */
export function counted(target: Target, tally: RequestTally): Target {
  return {
    name: target.name,
    async request(request) {
      const started = performance.now();
      try {
        const res = await target.request(request);
        tally.count(res.status, performance.now() - started);
        return res;
      } catch (error) {
        tally.count('network');
        throw error;
      }
    },
    ...(target.forClient ? { forClient: (address: string) => counted(target.forClient!(address), tally) } : {}),
  };
}

/** Spreads requests over several targets in turn, as a load balancer would. */
export function roundRobin(targets: Target[]): Target {
  let next = 0;
  return {
    name: targets.map((t) => t.name).join('+'),
    request(request) {
      const target = targets[next++ % targets.length]!;
      return target.request(request);
    },
    forClient: (address) => roundRobin(targets.map((t) => (t.forClient ? t.forClient(address) : t))),
  };
}

export const jsonOf = <T = Record<string, unknown>>(res: HttpResponse): T => JSON.parse(res.body) as T;

export const JSON_HEADERS = { 'content-type': 'application/json' };
