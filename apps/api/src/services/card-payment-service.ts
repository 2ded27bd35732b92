import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { createCardReconciliationService } from './card-reconciliation-service';
import { createCardReturnService } from './card-return-service';
import { createCardSettlement } from './card-settlement';
import { createCardStartService } from './card-start-service';
import type { WebpayClient } from './webpay-client';

export type { ReturnEstado, ReturnOutcome } from './card-settlement';
export type { StoreRequest } from './card-start-service';

export interface CardPaymentOptions {
  publicBaseUrl: string;
  settleAfterSeconds: number;
}

export type CardPaymentService = ReturnType<typeof createCardPaymentService>;

/** The payment host: starting a card payment (calls 9, 10), settling Webpay's return, and reconciling. */
export function createCardPaymentService(db: Db, clock: Clock, webpay: WebpayClient, options: CardPaymentOptions, log: FastifyBaseLogger) {
  const settlement = createCardSettlement(db, clock, webpay, log);
  return {
    ...createCardStartService(db, clock, webpay, options, log),
    ...createCardReturnService(db, webpay, settlement),
    ...createCardReconciliationService(db, settlement, options, log),
    /** For a manual refund (decision 036): Webpay's status, and the refund path that gives back what it holds. */
    webpayStatus: settlement.webpayStatus,
    refundDue: settlement.refundDue,
  };
}
