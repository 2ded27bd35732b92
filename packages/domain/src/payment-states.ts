/**
 * Every state machine of the product, one table of allowed moves each. Each machine has one transition function in
 * its repository (`moveTransaction`, `moveItems`, …): it checks the move against the table, names the expected state
 * in its WHERE clause (a move that lost a race changes nothing) and answers what it moved. The columns' CHECK
 * constraints are built from the same tables (`statesOf`).
 */
export const TRANSACTION_MOVES = {
  pending: ['posting', 'paid', 'rejected', 'cancelled', 'expired'],
  // The core was asked to debit the account: it booked it (paid) or refused it (pending again, the member may retry).
  posting: ['paid', 'pending'],
  // A second finance operator approved its reversal (decision 050): the core gives the money back, then Webpay.
  paid: ['reversing'],
  // Given back everywhere (reversed), or applied again when the core refused to give back anything (paid).
  reversing: ['reversed', 'paid'],
  reversed: [],
  rejected: [],
  cancelled: [],
  expired: [],
} as const satisfies Record<string, readonly string[]>;

export const CORE_OPERATION_MOVES = {
  // A pending try may be sent any number of times under its key; the core's answer settles it (decision 043).
  pending: ['booked', 'refused', 'failed'],
  booked: [],
  // Refused by the core (own account: back to the member; card credit: the console re-posts or refunds it).
  refused: [],
  // The core recorded a failure under this try's key and answers it to every repeat: it applied nothing, and the
  // operation goes on under a new key (a card credit's next try, or the member's next own-account try).
  failed: [],
} as const satisfies Record<string, readonly string[]>;

/**
 * What a core operation asks: an own-account debit, a card payment's credit, or the reversal of one of those
 * (decision 050), keyed `{key of what it reverses}.x`.
 */
export const CORE_OPERATION_KINDS = ['cuenta_vista', 'abono_webpay', 'anulacion'] as const;
export type CoreOperationKind = (typeof CORE_OPERATION_KINDS)[number];

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
  // An applied charge whose payment was reversed (decision 050): refunded once the core gave the credits back.
  committed: ['refund_due'],
  rejected: [],
  expired: [],
  refunded: [],
  // No form reached the member: nobody holds a token to pay with, so Webpay took nothing.
  not_opened: [],
  // An operator's manual refund, approved by a second person (decision 036), hands it back to the refund path.
  set_aside: ['refund_due'],
} as const satisfies Record<string, readonly string[]>;

/** The states a move to `to` may start from, by the table. */
export function movesInto<T extends Record<string, readonly string[]>>(table: T, to: keyof T & string): (keyof T & string)[] {
  return Object.entries(table)
    .filter(([, targets]) => (targets as readonly string[]).includes(to))
    .map(([from]) => from as keyof T & string);
}

export type WebpayAttemptStatus = keyof typeof WEBPAY_ATTEMPT_MOVES;
export type TransactionStatus = keyof typeof TRANSACTION_MOVES;
export type CoreOperationStatus = keyof typeof CORE_OPERATION_MOVES;

export function assertMove<T extends Record<string, readonly string[]>>(table: T, from: string, to: string): void {
  if (!(table[from] ?? []).includes(to)) throw new Error(`move not allowed: ${from} → ${to}`);
}

/** A transaction's frozen lines: paid with it, or left out (a Mall store Webpay did not approve). */
export const ITEM_MOVES = {
  pending: ['paid', 'rejected'],
  // The core gave its money back (decision 050): the instalment is owed again.
  paid: ['reversed'],
  reversed: [],
  rejected: [],
} as const satisfies Record<string, readonly string[]>;

/**
 * A second factor: a coordinate challenge (answered right: used; wrong, superseded or late: expired) or a push the
 * payer's phone approves or rejects; an approval pays once (used) or lapses with its device.
 */
export const AUTHORIZATION_MOVES = {
  pending: ['approved', 'rejected', 'used', 'expired'],
  approved: ['used', 'expired'],
  rejected: [],
  used: [],
  expired: [],
} as const satisfies Record<string, readonly string[]>;

/** An operator's proposal (decisions 034, 039): decided by another person before it lapses. */
export const OPERATOR_CHANGE_MOVES = {
  pendiente: ['aprobado', 'rechazado', 'vencido'],
  // What the approval set off after it committed failed (Webpay refused the refund): said so, proposed again if need be.
  aprobado: ['fallido'],
  fallido: [],
  rechazado: [],
  vencido: [],
} as const satisfies Record<string, readonly string[]>;

/**
 * A business day's close (decision 049): closed once a second finance operator approves it; any later change of a
 * state of one of the day's payments reopens it, and it may be signed again. A day with no row is open.
 */
export const DAY_CLOSE_MOVES = {
  cerrado: ['reabierto'],
  reabierto: ['cerrado'],
} as const satisfies Record<string, readonly string[]>;

export type DayCloseStatus = keyof typeof DAY_CLOSE_MOVES;
export type ItemStatus = keyof typeof ITEM_MOVES;
export type AuthorizationStatus = keyof typeof AUTHORIZATION_MOVES;
export type OperatorChangeStatus = keyof typeof OPERATOR_CHANGE_MOVES;
export type Moves = Record<string, readonly string[]>;

/** The states of a machine, in the table's order: what its column's CHECK constraint allows. */
export function statesOf<T extends Moves>(table: T): (keyof T & string)[] {
  return Object.keys(table) as (keyof T & string)[];
}

/** The states a move may start from, each checked against the table: a move the table does not allow throws. */
export function checkedFrom<T extends Moves>(table: T, from: keyof T | readonly (keyof T)[], to: keyof T): (keyof T & string)[] {
  const list = (Array.isArray(from) ? from : [from]) as (keyof T & string)[];
  for (const state of list) assertMove(table, state, to as string);
  return list;
}

/** Whether a state has no way out (its row is settled). */
export function isFinal<T extends Moves>(table: T, state: keyof T): boolean {
  return (table[state] ?? []).length === 0;
}

/** A push as the mobile authoriser decides it (factor 2): the same row as its authorization, seen from the phone. */
export type AuthoriserRequestStatus = AuthorizationStatus;
