/** The simulator's own ledger: it is the provider, so it keeps what it authorised, not our database. */
export type SimStatus = 'INITIALIZED' | 'AUTHORIZED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT' | 'REVERSED' | 'NULLIFIED';

export interface SimDetail {
  amount: number;
  commerceCode: string;
  buyOrder: string;
  installmentsNumber: number;
  status: SimStatus;
  responseCode: number;
  authorizationCode: string;
  paymentTypeCode: string;
  /** What is left after partial refunds, as status reports it (0 until the first one). */
  balance: number;
  /** The sum of the refunds that were not reversals. */
  nullified: number;
}

export interface SimTransaction {
  token: string;
  buyOrder: string;
  sessionId: string;
  returnUrl: string;
  details: SimDetail[];
  /** INITIALIZED until the form is used; then AUTHORIZED (some store approved) or FAILED, or ABORTED / TIMED_OUT. */
  status: SimStatus;
  createdAt: number;
  /** When the cardholder finished on the form. */
  finishedAt: number | null;
  committedAt: number | null;
  cardNumber: string | null;
  vci: string;
}

export class SimStore {
  private readonly byToken = new Map<string, SimTransaction>();
  private readonly buyOrders = new Set<string>();

  hasBuyOrder(buyOrder: string): boolean {
    return this.buyOrders.has(buyOrder);
  }

  add(trx: SimTransaction): void {
    this.byToken.set(trx.token, trx);
    this.buyOrders.add(trx.buyOrder);
  }

  get(token: string): SimTransaction | undefined {
    return this.byToken.get(token);
  }

  /** Everything the provider holds: what a reconciliation against the provider's books reads. */
  all(): SimTransaction[] {
    return [...this.byToken.values()];
  }
}
