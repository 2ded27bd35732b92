import type { FastifyBaseLogger } from 'fastify';
import type { PaymentTypeCheck } from '../routes/health';
import type { CoreBanking } from './core-banking';

/** How long a replica waits before asking the core again while the payment types are not confirmed. */
const RECHECK_MS = 10_000;

/**
 * Reads the core's payment types (GET /paymenttypes) at boot and while any configured one is missing or not yet
 * confirmed, never holding /ready on the core: /ready answers what the last look found. Once all are there, the
 * settings cannot change in this process, so the core is not asked again.
 */
export function createPaymentTypeCheck(core: Pick<CoreBanking, 'missingPaymentTypes'>, log: FastifyBaseLogger): PaymentTypeCheck & { refresh(): Promise<void> } {
  let missing: string[] | null = null;
  let lastAsked = 0;
  let asking: Promise<void> | null = null;
  const refresh = () => {
    asking ??= (async () => {
      lastAsked = Date.now();
      const answer = await core.missingPaymentTypes();
      if (!answer.ok) log.warn({ detail: answer.detail }, 'the core did not list its payment types: checked again later');
      else {
        if (answer.data.length > 0) log.error({ missing: answer.data }, 'the core has no payment type with these ids: payments of their kind would be refused');
        missing = answer.data;
      }
    })().finally(() => {
      asking = null;
    });
    return asking;
  };
  return {
    refresh,
    missing() {
      const confirmed = missing !== null && missing.length === 0;
      if (!confirmed && Date.now() - lastAsked >= RECHECK_MS) void refresh();
      return missing;
    },
  };
}
