// Call 8, the voucher by e-mail (spec §7.8), and the voucher's PDF. Its schemas are in schemas/call-notificaciones.ts.

export const ENVIAR_COMPROBANTE_PATH = '/prod/notificaciones/enviar';
export const ENVIAR_COMPROBANTE_REQUEST = 'enviarComprobantePagoRequest';
export const ENVIAR_COMPROBANTE_RESPONSE = 'enviarComprobantePagoResponse';
/** The voucher as a PDF (A4, download.pdf) for the session that paid it. */
export const COMPROBANTE_PDF_PATH = '/api/comprobante/pdf';

/** The Authorization header of call 8, built from the RUT and the session token. */
export const notificationAuthorization = (rut: string, token: string) =>
  `Basic ${btoa(`${rut}:${token}`)}`;
