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
  /** The member's accounts and products as the core holds them now; null when the core does not know the RUT. */
  memberProducts(rut: string): Promise<CoreCall<CoreMemberView | null>>;
  /** Own-account payment: debits the cuenta vista and credits each line's product, all or nothing. */
  payFromAccount(key: string, payment: { numeroCuenta: string; lines: CoreLine[]; date: Date }): Promise<CoreAnswer>;
  /** Money Webpay took for one product: a loan repayment or a deposit, booked once per key. */
  credit(key: string, line: CoreLine, date: Date): Promise<CoreAnswer>;
  /** Undoes a credit booked with `key` (an operator's refund): the core's own undo. */
  reverse(key: string, line: CoreLine, date: Date): Promise<CoreAnswer>;
  /** The credit booked with `key`, looked up without writing. */
  findCredit(key: string, line: CoreLine): Promise<CoreCall<{ id: string; amount: number; reversed: boolean } | null>>;
  /** What the core booked on these accounts under our channel's keys: how the reconciliation sees the core's books. */
  channelOperations(accounts: CoreAccount[]): Promise<CoreCall<CoreOperationView[]>>;
}

/** An account in the core by our number: a cuenta vista or a product. */
export interface CoreAccount {
  numero: string;
  /** Credits (PC, HI, PM) are loans; the cuenta vista and the other families are savings accounts. */
  loan: boolean;
}

/** One movement the core booked under one of our keys. */
export interface CoreOperationView {
  key: string;
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
  /** No answer the core gave (a timeout, a lost answer, a 5xx, still running): ask again with the same key. */
  | { outcome: 'unknown'; detail: string };

export type CoreCall<T> = { ok: true; data: T } | { ok: false; detail: string };

export interface CoreMemberView {
  savings: { externalId: string; productName: string; balance: number }[];
  loans: { externalId: string; productName: string; outstanding: number }[];
}
