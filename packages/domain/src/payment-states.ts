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

// The states of the other machines, as their columns' CHECK lists hold them (the console and the vocabulary in
// state-words.ts are typed by these, so a new state must be named there too).

/** A transaction's line: pending until the transaction pays or closes. */
export const ITEM_STATES = ['pending', 'paid', 'rejected'] as const;
export type ItemStatus = (typeof ITEM_STATES)[number];

/** A second-factor request (coordinates, or a push to the mobile authoriser): spent once, 'used' only when it paid. */
export const AUTHORIZATION_STATES = ['pending', 'approved', 'rejected', 'used', 'expired'] as const;
export type AuthorizationStatus = (typeof AUTHORIZATION_STATES)[number];

/** A push as the mobile authoriser decides it (factor 2): the same row as its authorization, seen from the phone. */
export type AuthoriserRequestStatus = AuthorizationStatus;

/** An operator's change waiting for a second person (four eyes). */
export const OPERATOR_CHANGE_STATES = ['pendiente', 'aprobado', 'rechazado', 'vencido', 'fallido'] as const;
export type OperatorChangeStatus = (typeof OPERATOR_CHANGE_STATES)[number];
