import pino from 'pino';
import type { FastifyServerOptions } from 'fastify';
import { requestContext } from './request-context';
import { LOG_REDACT_PATHS } from './app';

/** A URL as it may be logged: the path, and the query's names without their values (RUTs, Webpay's tokens). */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=[redacted]`);
  return `${url.slice(0, at)}?${names.join('&')}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * The API's logger, in one place for the server and for the tests that read its lines: pino at `level`, the
 * credentials and personal fields of LOG_REDACT_PATHS censored, and request URLs logged without query values
 * (the sandbox's pages take a RUT there, Webpay's returns carry its tokens).
 */
export function loggerOptions(level: string) {
  return {
    level,
    // A line written by a service during a request carries that request's id too; the request's own logger
    // already binds it.
    mixin(_object: object, _level: number, logger: object) {
      // The bindings as pino keeps them (a JSON fragment): cheaper to search than logger.bindings(), which parses it.
      if ((logger as Record<symbol, string | undefined>)[pino.symbols.chindingsSym]?.includes('"reqId":')) return {};
      const reqId = requestContext.getStore();
      return reqId ? { reqId } : {};
    },
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: LoggedRequest) => ({ method: req.method, url: loggableUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
  } satisfies Exclude<FastifyServerOptions['logger'], boolean | undefined>;
}
