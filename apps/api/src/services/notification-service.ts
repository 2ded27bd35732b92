import { maskEmail } from '@pago/domain/call-consultar-pago';
import { type Pago } from '@pago/domain/schemas/call-consultar-pago';
import { isValidVoucherEmail } from '@pago/domain/email';
import { emailSentMessage } from '@pago/domain/errors';
import { toParameterMap } from '@pago/domain/parameters';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import type { FastifyBaseLogger } from 'fastify';
import { loggableError } from '../loggable-error';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { listParameters } from '../repositories/parameters-repository';
import type { Mailer } from './mail-service';
import { latestPaidOfSession, ofSessionWithVoucher, voucherWithOwner } from '../repositories/transaction-repository';
import { refuse, type Refusal } from './refusal';
import { touchSession } from './session-service';
import { renderVoucherPdf, verificationOf, VOUCHER_FILENAME, voucherText } from './voucher-document';
import { authorisedWithName, VOUCHER_LABELS, VOUCHER_TEXTS } from '@pago/domain/voucher';
import { usedFactorOf } from '../repositories/authorization-repository';

export type SendResult = { ok: true; descripcion: string } | Refusal;

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export type NotificationService = ReturnType<typeof createNotificationService>;

export function createNotificationService(db: Db, mailer: Mailer, cooperative: string, publicBaseUrl: string, productSlug: string, log: FastifyBaseLogger) {
  /** Renders and sends a voucher with its PDF; false when the mail server refused it (logged). */
  async function mailVoucher(pagos: Pago[], verificationCode: string | null, correo: string, idTransaccion: string, requestId: string): Promise<boolean> {
    const view = {
      cooperative,
      pagos,
      authorisedWith: authorisedWithName(await usedFactorOf(db, idTransaccion), productSlug),
      verification: verificationOf(publicBaseUrl, verificationCode),
    };
    const lines = voucherText(view);
    const pdf = await renderVoucherPdf(view);
    // The same fields as the screen and the PDF, in the same words; the RUT masked as everywhere else.
    const text = [
      `${cooperative} - Pago Online`,
      VOUCHER_TEXTS.title,
      `${VOUCHER_LABELS.total}: ${lines.total}`,
      ...lines.products.flatMap((p) => [p.title, ...[...p.lines, ...p.foot].map(([k, v]) => `  ${k}: ${v}`)]),
      ...lines.details.map(([k, v]) => `${k}: ${v}`),
      ...(view.verification ? [`${VOUCHER_TEXTS.verifyAt} ${view.verification.url}`] : []),
      VOUCHER_TEXTS.pdfAttached,
    ].join('\n');
    const cell = 'style="padding:2px 12px 2px 0"';
    const html =
      `<h1 style="font-family:Arial,sans-serif;color:#0b3f4a">${escape(VOUCHER_TEXTS.title)}</h1><p style="font-family:Arial,sans-serif">${escape(VOUCHER_LABELS.total)}: <strong>${escape(lines.total)}</strong></p>` +
      lines.products
        .map(
          (p) =>
            `<h2 style="font-family:Arial,sans-serif;font-size:16px">${escape(p.title)}</h2>` +
            `<table style="font-family:Arial,sans-serif;font-size:14px">${[...p.lines, ...p.foot].map(([k, v]) => `<tr><td ${cell}>${escape(k)}</td><td><strong>${escape(v)}</strong></td></tr>`).join('')}</table>`,
        )
        .join('') +
      `<h2 style="font-family:Arial,sans-serif;font-size:16px">${escape(VOUCHER_LABELS.details)}</h2>` +
      `<table style="font-family:Arial,sans-serif;font-size:14px">${lines.details.map(([k, v]) => `<tr><td ${cell}>${escape(k)}</td><td><strong>${escape(v)}</strong></td></tr>`).join('')}</table>` +
      (view.verification
        ? `<p style="font-family:Arial,sans-serif">${escape(VOUCHER_TEXTS.verifyAt)} <a href="${escape(view.verification.url)}">${escape(view.verification.url)}</a></p>`
        : '') +
      `<p style="font-family:Arial,sans-serif">${escape(VOUCHER_TEXTS.pdfAttached)}</p>`;
    try {
      await mailer.send({
        to: correo,
        subject: `${VOUCHER_TEXTS.document} ${cooperative}`,
        text,
        html,
        attachments: [{ filename: VOUCHER_FILENAME, contentType: 'application/pdf', content: pdf }],
      });
    } catch (error) {
      // The SMTP server's refusal names the recipient: scrubbed like every other logged error.
      log.child({ reqId: requestId }).error({ error: loggableError(error), idTransaccion }, 'voucher e-mail failed');
      return false;
    }
    return true;
  }

  return {
    /** The operator's resend: the voucher of a paid transaction, to the e-mail the member has on file. */
    async resendVoucher(idTransaccion: string, requestId: string): Promise<'sent' | 'not_found' | 'no_email' | 'failed'> {
      const row = await voucherWithOwner(db, idTransaccion);
      if (!row) return 'not_found';
      if (!row.email || !isValidVoucherEmail(row.email)) return 'no_email';
      if (!(await mailVoucher(row.pagos, row.verificationCode, row.email, idTransaccion, requestId))) return 'failed';
      await appendAudit(db, { kind: 'comprobante.reenviado', rutMasked: maskRut(row.rut), requestId, detail: { idTransaccion, correo: maskEmail(row.email) } });
      return 'sent';
    },

    /** Call 8: e-mails the voucher of the session's latest paid transaction, with the PDF attached. */
    async sendVoucher(token: string, rutInput: string, correo: string, requestId: string): Promise<SendResult> {
      const rut = canonicalRut(rutInput);
      if (!rut) return refuse('476');
      const params = toParameterMap(await listParameters(db));
      const session = await touchSession(db, token, rut, Number(params.sessionTimeOut ?? 5));
      if (!session) return refuse('476');
      if (!isValidVoucherEmail(correo)) return refuse('400');
      const idTransaccion = await latestPaidOfSession(db, session.id);
      const voucher = idTransaccion ? await ofSessionWithVoucher(db, idTransaccion, session.id) : null;
      const pagos = voucher?.pagos;
      if (!idTransaccion || !pagos) return refuse('516');

      if (!(await mailVoucher(pagos, voucher.verificationCode, correo, idTransaccion, requestId))) return refuse('502');
      await appendAudit(db, { kind: 'comprobante.enviado', rutMasked: maskRut(rut), requestId, detail: { idTransaccion, correo: maskEmail(correo) } });
      return { ok: true, descripcion: emailSentMessage(maskEmail(correo)) };
    },
  };
}
