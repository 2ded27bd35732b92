import { VOUCHER_TEXTS } from '@pago/domain/voucher-texts';
import type { Pago } from '@pago/domain/schemas/call-consultar-pago';
import { formatClp } from '@pago/domain/money';
import {
  productFootRows,
  productTitle,
  VOUCHER_LABELS,
  voucherDetails,
  voucherOf,
  type Voucher,
} from '@pago/domain/voucher';
import { formatVerificationCode, verificationPath } from '@pago/domain/voucher-verification';
import PDFDocument from 'pdfkit';
import qrcode from 'qrcode-generator';

export const VOUCHER_FILENAME = 'download.pdf';

const PRIMARY = '#0b3f4a';
const MUTED = '#4a5d66';

export interface VoucherView {
  cooperative: string;
  pagos: Pago[];
  /** 'Autorizado con': the second factor that authorised the payment, by name (null for a card payment). */
  authorisedWith: string | null;
  /** The voucher's verification code and its public page, printed with a QR code (null on older vouchers). */
  verification?: { code: string; url: string } | null;
}

/** The voucher's proof for the PDF and the e-mail: its code and the public page's full address (none on older vouchers). */
export function verificationOf(publicBaseUrl: string, code: string | null): VoucherView['verification'] {
  return code ? { code, url: new URL(verificationPath(code), publicBaseUrl).toString() } : null;
}

export interface VoucherText {
  total: string;
  details: [string, string][];
  products: { title: string; lines: [string, string][]; foot: [string, string][] }[];
}

/** The domain's voucher (the screen's too) in text, for the PDF and the e-mail. */
export function voucherText(view: VoucherView): VoucherText {
  const voucher: Voucher | null = voucherOf(view.pagos, view.authorisedWith);
  if (!voucher) throw new Error('a voucher without payments');
  return {
    total: formatClp(voucher.total),
    details: voucherDetails(voucher),
    products: voucher.products.map((product) => ({
      title: productTitle(product),
      lines: product.lines.map((line): [string, string] => [line.label, formatClp(line.amount)]),
      foot: productFootRows(product),
    })),
  };
}

/** The voucher as an A4 PDF (pdfkit's standard fonts carry Spanish accents in WinAnsi). */
export function renderVoucherPdf(view: VoucherView): Promise<Buffer> {
  const lines = voucherText(view);
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: VOUCHER_TEXTS.document, Author: view.cooperative } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 112;
  doc.rect(0, 0, doc.page.width, 90).fill(PRIMARY);
  doc.fillColor('#ffffff').font('Helvetica-Bold').fontSize(20).text(view.cooperative, 56, 30);
  doc.font('Helvetica').fontSize(11).text(VOUCHER_TEXTS.documentHeading, 56, 56);
  doc.moveDown(3);
  doc.fillColor(PRIMARY).font('Helvetica-Bold').fontSize(18).text(VOUCHER_TEXTS.title, 56, 120);
  doc.fillColor('#000000').font('Helvetica-Bold').fontSize(13).text(`${VOUCHER_LABELS.total}: ${lines.total}`, 56, 148);
  let y = 180;
  const row = (label: string, value: string, bold = false) => {
    doc.fillColor(MUTED).font('Helvetica').fontSize(10).text(label, 56, y, { width: width / 2 });
    doc.fillColor('#000000').font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10).text(value, 56 + width / 2, y, { width: width / 2, align: 'right' });
    y += 18;
  };
  for (const [label, value] of lines.details) row(label, value);
  for (const product of lines.products) {
    y += 10;
    doc.moveTo(56, y).lineTo(56 + width, y).strokeColor('#d5dde2').stroke();
    y += 10;
    doc.fillColor(PRIMARY).font('Helvetica-Bold').fontSize(11).text(product.title, 56, y, { width });
    y += 20;
    for (const [label, value] of product.lines) row(label, value, true);
    for (const [label, value] of product.foot) row(label, value);
  }
  y += 14;
  doc.moveTo(56, y).lineTo(56 + width, y).strokeColor(PRIMARY).lineWidth(1.5).stroke();
  y += 10;
  row(VOUCHER_LABELS.total, lines.total, true);
  if (view.verification) drawVerification(doc, view.verification, y + 24, width);
  doc.fillColor(MUTED).font('Helvetica').fontSize(8).text(VOUCHER_TEXTS.keepIt, 56, doc.page.height - 90, { width, align: 'center' });
  doc.end();
  return done;
}

/** The QR code of the verification page, drawn module by module, beside the code and the address to type. */
function drawVerification(doc: PDFKit.PDFDocument, verification: { code: string; url: string }, top: number, width: number): void {
  const qr = qrcode(0, 'M');
  qr.addData(verification.url);
  qr.make();
  const modules = qr.getModuleCount();
  const cell = 96 / modules;
  for (let r = 0; r < modules; r++) {
    for (let c = 0; c < modules; c++) if (qr.isDark(r, c)) doc.rect(56 + c * cell, top + r * cell, cell, cell).fill('#000000');
  }
  const left = 56 + 96 + 18;
  doc.fillColor(PRIMARY).font('Helvetica-Bold').fontSize(11).text(VOUCHER_TEXTS.verifyTitle, left, top + 6, { width: width - 114 });
  doc.fillColor('#000000').font('Helvetica').fontSize(10).text(`${VOUCHER_TEXTS.verificationCode}: ${formatVerificationCode(verification.code)}`, left, top + 26, { width: width - 114 });
  doc.fillColor(MUTED).fontSize(9).text(verification.url, left, top + 44, { width: width - 114 });
}
