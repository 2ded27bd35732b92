import type { FastifyInstance, FastifyReply } from 'fastify';

/** What a request still unanswered at its deadline is failed with; the error handler answers it with 503. */
export const REQUEST_TIMED_OUT = 'REQUEST_TIMED_OUT';

/**
 * Bounds every request: one still unanswered `timeoutMs` after it arrived is failed with REQUEST_TIMED_OUT (503 with
 * the envelope, error-handler.ts). Fastify's own `handlerTimeout` does the same with an AbortController, a timer and
 * a 'close' listener per request, and builds an AbortError (a DOMException with its stack) when each request ends
 * normally: about a tenth of the API's CPU on a short call (docs/PERFORMANCE.md). Here one timer sweeps the requests
 * in flight instead, so a request costs one map entry; the answer comes between `timeoutMs` and one sweep later.
 */
export function registerRequestDeadline(app: FastifyInstance, timeoutMs: number): void {
  const deadlines = new Map<FastifyReply, number>();
  const sweepEveryMs = Math.max(20, Math.min(1_000, Math.floor(timeoutMs / 10)));

  const sweep = () => {
    const now = performance.now();
    for (const [reply, deadline] of deadlines) {
      if (reply.sent || reply.raw.writableEnded) {
        deadlines.delete(reply);
        continue;
      }
      if (now < deadline) continue;
      deadlines.delete(reply);
      const error = Object.assign(new Error(`request not answered within ${timeoutMs} ms`), { code: REQUEST_TIMED_OUT, statusCode: 503 });
      // Part of the answer has left already (a streamed body): no other answer can follow, only a cut.
      if (reply.raw.headersSent) reply.raw.destroy(error);
      else reply.send(error);
    }
  };
  const timer = setInterval(sweep, sweepEveryMs);
  timer.unref();

  app.addHook('onRequest', (_request, reply, done) => {
    deadlines.set(reply, performance.now() + timeoutMs);
    done();
  });
  // Dropped as soon as the answer is out: left for the sweep, each reply (with its request and socket objects) lived
  // up to a second, long enough to be copied out of V8's young generation and promoted, and the garbage collector
  // then spent pauses of up to 10 ms on them (docs/PERFORMANCE.md). The sweep still removes any entry this misses.
  app.addHook('onResponse', (_request, reply, done) => {
    deadlines.delete(reply);
    done();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    deadlines.clear();
  });
}
