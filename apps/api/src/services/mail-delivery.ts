import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { loggableError } from '../loggable-error';
import { claimDueMails, markMailFailed, markMailSent } from '../repositories/mail-queue-repository';
import type { Mailer } from './mail-service';

// Sent one after another: a big load's notices reach the mail server at its pace, not all at once.
const BATCH = 50;
/** Longer than nodemailer's own connection and greeting timeouts: a claim outlives the try it covers. */
const LEASE_SECONDS = 120;
/** Back-off from 30 s, doubling, to an hour between tries; after this many the e-mail is given up (about a day). */
export const MAIL_MAX_ATTEMPTS = 30;
const MAX_RETRY_SECONDS = 3600;

/** What a failed try leaves on the row: the kind of failure, never the server's text (it may name the recipient). */
function failureOf(error: unknown): string {
  const e = (error ?? {}) as { code?: unknown; responseCode?: unknown; name?: unknown };
  const kind = typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'error';
  return typeof e.responseCode === 'number' ? `${kind} ${e.responseCode}` : kind;
}

export type MailDelivery = ReturnType<typeof createMailDelivery>;

/** Sends the queued e-mails (mail_queue) through the mailer; every replica runs it, each claiming its own rows. */
export function createMailDelivery(db: Db, mailer: Mailer, log: FastifyBaseLogger) {
  return {
    async deliverDue(): Promise<{ sent: number; failed: number }> {
      const due = await claimDueMails(db, BATCH, LEASE_SECONDS, MAIL_MAX_ATTEMPTS);
      let sent = 0;
      for (const mail of due) {
        try {
          await mailer.send({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, attachments: [] });
          await markMailSent(db, mail.id);
          sent++;
        } catch (error) {
          await markMailFailed(db, mail.id, failureOf(error), Math.min(30 * 2 ** mail.attempts, MAX_RETRY_SECONDS));
          // The recipient stays out of the log: an SMTP refusal names it (loggableError scrubs it).
          log.warn({ mail: mail.id, attempts: mail.attempts + 1, error: loggableError(error) }, 'queued e-mail not sent; retrying');
        }
      }
      return { sent, failed: due.length - sent };
    },
  };
}
