import nodemailer from 'nodemailer';
import type { Db } from '../db/client';
import { insertMail } from '../repositories/outbox-repository';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** 'smtp' or 'outbox': where mail goes. */
  readonly kind: 'smtp' | 'outbox';
}

/** A short text e-mail, its HTML one paragraph per line (escaped). */
export function textMail(to: string, subject: string, lines: string[]): Mail {
  const html = lines.map((line) => `<p style="font-family:Arial,sans-serif">${line.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`).join('');
  return { to, subject, text: lines.join('\n'), html, attachments: [] };
}

/** SMTP through nodemailer when SMTP_URL is set; otherwise the sandbox outbox table. */
export function createMailer(db: Db, options: { smtpUrl?: string | undefined; from: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl, { from: options.from });
    return {
      kind: 'smtp',
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  return {
    kind: 'outbox',
    async send(mail) {
      await insertMail(db, {
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, base64: a.content.toString('base64') })),
      });
    },
  };
}
