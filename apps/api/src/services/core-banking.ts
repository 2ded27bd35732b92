import { kindOf, type Family } from '@pago/domain/families';

/** A family the core holds as a loan: the credits. Shares, card payments and savings are savings accounts (decision 029). */
export const isLoanInCore = (family: Family) => kindOf(family) === 'credit';

/**
 * What Pago Online needs from the cooperative's core banking system, which owns the money (DESIGN.md §9,
 * docs/core-banking.md). The shipped adapter speaks Apache Fineract's REST API (fineract-client.ts); another core
 * is another implementation of this interface. Every write carries our key and is idempotent on it: asking again
 * with the same key never books twice.
 */
export interface CoreBanking {
  /** Own-account payment: debits the cuenta vista and credits each line's product, all or nothing. */
  payFromAccount(key: string, payment: { numeroCuenta: string; lines: CoreLine[]; date: Date }): Promise<CoreAnswer>;
  /** Money Webpay took for one product: a loan repayment or a deposit, booked once per key. */
  credit(key: string, line: CoreLine, date: Date): Promise<CoreAnswer>;
  /**
   * Gives back what an operation booked, under its own key (decision 050), as Fineract allows: the transactions of a
   * card credit or of an own-account batch are undone one by one (credits first, then the debit); a transfer to a
   * savings product goes back by a transfer the other way. A transfer to a loan cannot be reversed through the API
   * (Fineract refuses to undo or charge back a transfer's leg): `reversibleInCore` keeps it from being proposed.
   */
  reverse(key: string, what: CoreReversal): Promise<CoreAnswer>;
  /**
   * What this channel booked on these accounts: only its own payment types and keys, each with its business day.
   * How the reconciliation sees the core's books; a teller's deposit or another channel's repayment is not here.
   */
  channelOperations(accounts: CoreAccount[]): Promise<CoreCall<CoreOperationView[]>>;
  /** The configured payment types the core does not have, by the setting's name (empty: all there). */
  missingPaymentTypes(): Promise<CoreCall<string[]>>;
}

/** What a reversal gives back: a card credit, or an own-account payment (one transfer, or a batch of several lines). */
export type CoreReversal =
  | { kind: 'abono_webpay'; originalKey: string; line: CoreLine; date: Date }
  | { kind: 'cuenta_vista'; originalKey: string; numeroCuenta: string; lines: CoreLine[]; date: Date };

/** Whether the core can give an operation back: not an own-account payment of one loan, posted as a transfer. */
export function reversibleInCore(op: { kind: string; lines: readonly { family: string }[] }): boolean {
  return !(op.kind === 'cuenta_vista' && op.lines.length === 1 && isLoanInCore(op.lines[0]!.family as Family));
}

/**
 * Our keys: an own-account try (`{idTransaccion}-{n}`) or a card credit (the store's buy order, `.rN` per new try),
 * and the reversal of either (`.x`, with its own `.rN`).
 */
export const CHANNEL_KEY = /^(?:[0-9a-f]{32}-\d+|PO[0-9a-f]{16}-\d+(?:\.r\d+)*)(?:\.x(?:\.r\d+)*)?$/;

/** An account in the core by our number: a cuenta vista or a product. */
export interface CoreAccount {
  numero: string;
  /** Credits (PC, HI, PM) are loans; the cuenta vista and the other families are savings accounts. */
  loan: boolean;
}

/** One movement the core booked under one of our keys. */
export interface CoreOperationView {
  key: string;
  /** The core's transaction date, yyyymmdd: the business day it was booked for. */
  date: string;
  account: string;
  direction: 'debit' | 'credit';
  amount: number;
  reversed: boolean;
}

/** One product an operation credits. */
export interface CoreLine {
  numeroProducto: string;
  family: Family;
  amount: number;
}

export type CoreAnswer =
  /** The core booked it: its own ids of what it booked, per product number. */
  | { outcome: 'booked'; refs: Record<string, string> }
  /** The core answered no: nothing was booked. */
  | { outcome: 'refused'; reason: 'insufficient_funds' | 'refused'; detail: string }
  /**
   * The core recorded a failure under this key (Fineract serves it from its idempotency record to every repeat):
   * nothing was booked, and this key will never book. The operation goes on under a new key (decision 043).
   */
  | { outcome: 'failed'; detail: string }
  /**
   * No answer the core gave (a timeout, a lost answer, a first 5xx, still running): ask again with the same key.
   * `rolledBack`: the core ran the batch and rolled it back, keeping nothing of it (a 5xx or 409 item not served from
   * a record); asked again a bounded number of times (decision 043).
   */
  | { outcome: 'unknown'; detail: string; rolledBack?: boolean };

export type CoreCall<T> = { ok: true; data: T } | { ok: false; detail: string };
