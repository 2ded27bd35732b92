import { scrubLogText } from '@pago/domain/call-guardarlog';

/** The error and its causes (a Drizzle query error wraps the driver's), nearest first. */
function chain(error: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    out.push(e as Record<string, unknown>);
  }
  return out;
}

// PostgreSQL refused a value the request carried (a NUL byte, a lone surrogate, text where a number or uuid goes):
// the request was bad, not the server.
const INPUT_REFUSED = new Set(['22021', '22P05', '22P02']);
// The database is gone or going: refused or dropped connections, shutdown, terminated backends, pool timeouts, and a
// node that has just stopped being the primary (25006: read-only) while the cluster fails over.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '25006', '08000', '08001', '08003', '08004', '08006', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|Connection ended|PGlite is closed|Query read timeout/i;

export function databaseFailure(error: unknown): 'input' | 'unavailable' | null {
  for (const e of chain(error)) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && INPUT_REFUSED.has(code)) return 'input';
    if ((code && UNAVAILABLE_CODES.has(code)) || (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message))) return 'unavailable';
  }
  return null;
}

/**
 * What of an error may reach a log line. A failed query's message and stack carry its parameters (RUTs, e-mails,
 * token hashes) and the driver's `detail` and `where` echo row values, so only the SQL text (placeholders, no
 * values), codes, scrubbed messages and stack frames are kept.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  const [first, ...causes] = chain(error);
  if (!first) return { message: scrubLogText(String(error)) };
  const describe = (e: Record<string, unknown>) => {
    const message = typeof e.message === 'string' ? e.message.split('\n')[0]! : String(e);
    const frames = typeof e.stack === 'string' ? e.stack.split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 12).join('\n') : undefined;
    return {
      type: typeof e.name === 'string' ? e.name : (e.constructor as { name?: string } | undefined)?.name,
      ...(typeof e.code === 'string' ? { code: e.code } : {}),
      message: scrubLogText(message),
      ...(frames ? { stack: frames } : {}),
    };
  };
  return { ...describe(first), ...(causes.length ? { causes: causes.map(describe) } : {}) };
}
