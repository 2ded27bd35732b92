import { z } from 'zod';

export { authOkSchema, hostRefusalSchema, initMallOkSchema } from './answers';

// Calls 9 and 10 (spec §7): the payment host. Unlike the cooperative's calls they are not wrapped in a
// request/response envelope: the answer is { code, token } or { token, url }, and a refusal is { code, descripcion }.

/** Call 9: the member's session (Bearer) asks to pay this transaction by card. */
export const authRequestSchema = z.object({ idTransaction: z.string().regex(/^[0-9a-f]{32}$/) }).strict();
export type AuthRequest = z.infer<typeof authRequestSchema>;

/** One store's part of a Mall payment. */
export const storeTransactionSchema = z
  .object({
    amount: z.number().int().positive().max(9_999_999_999),
    commerceCode: z.string().regex(/^\d{12}$/),
    transactionId: z.string().min(1).max(32),
  })
  .strict();
export type StoreTransaction = z.infer<typeof storeTransactionSchema>;

/** Call 10: opens the Webpay Mall transaction, one store per family. */
export const initMallRequestSchema = z
  .object({
    sessionId: z.string().min(1).max(200),
    storesTransaction: z.array(storeTransactionSchema).min(1).max(20),
    transactionId: z.string().regex(/^[0-9a-f]{32}$/),
  })
  .strict();
export type InitMallRequest = z.infer<typeof initMallRequestSchema>;
