import type { FastifyBaseLogger } from 'fastify';
import { createHmac } from 'node:crypto';
import type { Db } from '../db/client';
import { claimDueWebhooks, markWebhookDelivered, markWebhookFailed } from '../repositories/authoriser-repository';

/** A push's request lives 120 s: retries come quickly, and stop when it expires. */
const MAX_RETRY_SECONDS = 30;
const TIMEOUT_MS = 5_000;
const BATCH = 20;

/** The webhook's signature header: HMAC-SHA256 over `{timestamp}.{body}`, hex (docs/authoriser.md). */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;

/**
 * Tells the app's backend (AUTHORISER_WEBHOOK_URL) that a payment waits for a member's device, so it can wake the
 * phone. Each push is posted until a 2xx answers, with back-off, while its request lives; every replica runs it.
 */
export function createWebhookDelivery(db: Db, webhook: { url: string; secret: string } | null, log: FastifyBaseLogger) {
  return {
    async deliverDue(): Promise<{ delivered: number; failed: number }> {
      if (!webhook) return { delivered: 0, failed: 0 };
      const due = await claimDueWebhooks(db, BATCH, Math.ceil(TIMEOUT_MS / 1000) + 5);
      const outcomes = await Promise.all(
        due.map(async (row) => {
          const body = JSON.stringify(row.body);
          const timestamp = String(Math.floor(Date.now() / 1000));
          const retryIn = Math.min(2 ** row.attempts, MAX_RETRY_SECONDS);
          try {
            const response = await fetch(webhook.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-autorizador-fecha': timestamp, 'x-autorizador-firma': webhookSignature(webhook.secret, timestamp, body) },
              body,
              signal: AbortSignal.timeout(TIMEOUT_MS),
            });
            await response.body?.cancel();
            if (response.ok) {
              await markWebhookDelivered(db, row.id);
              return true;
            }
            await markWebhookFailed(db, row.id, `HTTP ${response.status}`, retryIn);
          } catch (error) {
            await markWebhookFailed(db, row.id, error instanceof Error ? error.name : 'error', retryIn);
          }
          log.warn({ webhook: row.id, attempts: row.attempts + 1 }, 'authoriser webhook not delivered; retrying');
          return false;
        }),
      );
      const delivered = outcomes.filter(Boolean).length;
      return { delivered, failed: outcomes.length - delivered };
    },
  };
}
