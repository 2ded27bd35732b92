import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// The standard 14 fonts the voucher uses, so that the text is read without warnings.
const standardFontDataUrl = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

/** The text and page sizes of a PDF, read the way a viewer reads it. */
export async function readPdf(data: Uint8Array): Promise<{ text: string; pages: { width: number; height: number }[] }> {
  const doc = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise;
  const pages = [];
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const viewport = page.getViewport({ scale: 1 });
    pages.push({ width: Math.round(viewport.width), height: Math.round(viewport.height) });
    const content = await page.getTextContent();
    text += content.items.map((item) => ('str' in item ? item.str : '')).join(' ') + '\n';
  }
  await doc.destroy();
  return { text, pages };
}
