import { COMPROBANTE_PDF_PATH } from '@pago/domain/call-notificaciones';
import { ApiError } from '../../../lib/api-client';

const PDF_TYPE = 'application/pdf';

/**
 * The voucher as a PDF (A4, specification §9), for the session that paid it. The server names it download.pdf in its
 * Content-Disposition, but a fetched file is saved by the page, which names it again. Throws ApiError on failure.
 */
export async function fetchComprobantePdf(token: string, idTransaccion: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(COMPROBANTE_PDF_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: PDF_TYPE },
      body: JSON.stringify({ token, idTransaccion }),
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw new ApiError('network', COMPROBANTE_PDF_PATH, null, null, { cause });
  }
  if (!response.ok) throw new ApiError('http', COMPROBANTE_PDF_PATH, response.status);
  // Anything but a PDF (a proxy's HTML page, say) would be saved as a broken download.pdf.
  if (!(response.headers.get('Content-Type') ?? '').startsWith(PDF_TYPE)) {
    throw new ApiError('parse', COMPROBANTE_PDF_PATH, response.status);
  }
  try {
    const blob = await response.blob();
    return blob.type === PDF_TYPE ? blob : new Blob([blob], { type: PDF_TYPE });
  } catch (cause) {
    throw new ApiError('network', COMPROBANTE_PDF_PATH, response.status, null, { cause });
  }
}
