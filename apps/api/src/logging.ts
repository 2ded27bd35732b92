import { maskRut } from '@pago/domain/rut';
import type { FastifyServerOptions } from 'fastify';
import { LOG_REDACT_PATHS } from './app';

/** A path segment that reads as a RUT: digits, with or without dots, an optional dash and the check digit. */
const RUT_SEGMENT = /^[\d.]*\d-?[\dkK]$/;

/** The path with every segment that reads as a RUT masked (the operator's calls take one: /admin/socios/:rut/…). */
function maskRutSegments(path: string): string {
  // Most paths carry no digit at all (the member's calls, the screens): nothing to look at.
  if (!/\d/.test(path)) return path;
  return path
    .split('/')
    .map((segment) => {
      let decoded = segment;
      if (segment.includes('%')) {
        try {
          decoded = decodeURIComponent(segment);
        } catch {
          // A broken escape beside a RUT still leaves the RUT readable in the raw segment.
          return /\d/.test(segment) ? '[redacted]' : segment;
        }
      }
      return RUT_SEGMENT.test(decoded) ? maskRut(decoded) : segment;
    })
    .join('/');
}

/**
 * A URL as it may be logged: the path with any RUT in it masked, and the query's names without their values (RUTs,
 * Webpay's tokens).
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return maskRutSegments(url);
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=[redacted]`);
  return `${maskRutSegments(url.slice(0, at))}?${names.join('&')}`;
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
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: LoggedRequest) => ({ method: req.method, url: loggableUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
  } satisfies Exclude<FastifyServerOptions['logger'], boolean | undefined>;
}
