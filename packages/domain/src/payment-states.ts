/**
 * The allowed moves of the states that money passes through, in one place. A repository update names the state it
 * moves from in its WHERE clause, so a move that lost a race changes nothing; `assertMove` refuses a move the table
 * does not allow before it is written.
 */
export const TRANSACTION_MOVES = {
  pending: ['posting', 'paid', 'rejected', 'cancelled', 'expired'],
  // The core was asked to debit the account: it booked it (paid) or refused it (pending again, the member may retry).
  posting: ['paid', 'pending'],
  paid: [],
  rejected: [],
  cancelled: [],
  expired: [],
} as const satisfies Record<string, readonly string[]>;

export const CORE_OPERATION_MOVES = {
  // A pending operation may be sent any number of times under its key; the core's answer settles it.
  pending: ['booked', 'refused'],
  booked: [],
  refused: [],
} as const satisfies Record<string, readonly string[]>;

export const WEBPAY_ATTEMPT_MOVES = {
  // The intent, written before Webpay's create is asked with no transaction open (decision 044): Webpay's token makes it
  // pending; a refusal, no answer, or a crash before the token was recorded (the reconciliation) leaves it not_opened.
  creating: ['pending', 'not_opened'],
  // The form is open, or Webpay's answer is not known yet.
  pending: ['committed', 'rejected', 'cancelled', 'expired', 'refund_due', 'set_aside'],
  // A browser's return said the member left; the reconciliation looks once more, and gives back what Webpay took after all.
  cancelled: ['refund_due', 'set_aside'],
  // Webpay took money that cannot be applied: refunded, or set aside when Webpay refuses the refund.
  refund_due: ['refunded', 'set_aside'],
  committed: [],
  rejected: [],
  expired: [],
  refunded: [],
  // No form reached the member: nobody holds a token to pay with, so Webpay took nothing.
  not_opened: [],
  // An operator's manual refund, approved by a second person (decision 036), hands it back to the refund path.
  set_aside: ['refund_due'],
} as const satisfies Record<string, readonly string[]>;

/** The states a move to `to` may start from, by the table. */
export function movesInto<T extends Record<string, readonly string[]>>(table: T, to: string): string[] {
  return Object.entries(table)
    .filter(([, targets]) => (targets as readonly string[]).includes(to))
    .map(([from]) => from);
}

export type WebpayAttemptStatus = keyof typeof WEBPAY_ATTEMPT_MOVES;
export type TransactionStatus = keyof typeof TRANSACTION_MOVES;
export type CoreOperationStatus = keyof typeof CORE_OPERATION_MOVES;

export function assertMove<T extends Record<string, readonly string[]>>(table: T, from: string, to: string): void {
  if (!(table[from] ?? []).includes(to)) throw new Error(`move not allowed: ${from} → ${to}`);
}
