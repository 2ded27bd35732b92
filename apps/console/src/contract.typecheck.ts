// Checked by `npm run typecheck` (tsc -p apps/console): the console can name only the permissions and states the
// domain has. Each @ts-expect-error below fails the build the day its line compiles, i.e. the day the console could
// name a permission or a state the server does not know.
import type { Permission } from '@pago/domain/operator-roles';
import type { TransactionStatus, WebpayAttemptStatus } from '@pago/domain/payment-states';
import { TRANSACTION_WORDS, WEBPAY_ATTEMPT_WORDS } from '@pago/domain/state-words';
import type { Session } from './api';
import { can } from './session';

export function contractChecks(session: Session): string[] {
  const known: Permission = 'webpay.devolver';
  // @ts-expect-error a misspelt permission is not a Permission
  const misspelt: Permission = 'webpay.devolucion';
  // @ts-expect-error can() refuses a permission the domain lacks
  const asked = can(session, 'socios.borrar');
  // @ts-expect-error a state the transactions' machine lacks has no words
  const unknownState: TransactionStatus = 'booked';
  const words: Record<WebpayAttemptStatus, string> = WEBPAY_ATTEMPT_WORDS;
  return [known, misspelt, String(asked), unknownState, words.set_aside, TRANSACTION_WORDS.paid];
}
