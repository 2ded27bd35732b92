// Apart from voucher.ts so that a screen's arrival (drawn at build time, decision 037) imports its words alone.

/** The voucher's headings and sentences, once, for the screen and its print, the PDF and the e-mail. */
export const VOUCHER_TEXTS = {
  title: 'Pago exitoso',
  intro: 'Tu pago se realizó correctamente. Este es el detalle de tu transacción.',
  document: 'Comprobante de pago',
  documentHeading: 'Pago Online · Comprobante de pago',
  verifyTitle: 'Verifica este comprobante',
  verifyHow: 'Escanea el código QR o ingresa el código en la dirección de abajo.',
  verifyAt: 'Verifica este comprobante en',
  verificationCode: 'Código de verificación',
  keepIt: 'Este comprobante es válido como constancia de pago. Consérvalo para cualquier consulta.',
  pdfAttached: 'Adjuntamos tu comprobante en PDF.',
} as const;
