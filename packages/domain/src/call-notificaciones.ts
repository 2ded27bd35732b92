import { z } from 'zod';
import { canalSchema } from './wire-schemas';
import { errorFieldSchema } from './envelope';

export const ENVIAR_COMPROBANTE_PATH = '/prod/notificaciones/enviar';
export const ENVIAR_COMPROBANTE_REQUEST = 'enviarComprobantePagoRequest';
export const ENVIAR_COMPROBANTE_RESPONSE = 'enviarComprobantePagoResponse';
/** The voucher as a PDF (A4, download.pdf) for the session that paid it. */
export const COMPROBANTE_PDF_PATH = '/api/comprobante/pdf';

/** Call 8 (spec §7.8). The Authorization header is 'Basic ' + base64(rut + ':' + token). */
export const enviarComprobanteRequestSchema = z
  .object({
    [ENVIAR_COMPROBANTE_REQUEST]: z
      .object({
        userId: z.string().min(1).max(64),
        canalLlamada: canalSchema,
        token: z.string().min(1).max(128),
        rut: z.string().min(3).max(12),
        correo: z.string().min(3).max(254),
      })
      .strict(),
  })
  .strict();
export type EnviarComprobanteRequest = z.infer<typeof enviarComprobanteRequestSchema>;

export const enviarComprobanteResponseSchema = z.object({
  [ENVIAR_COMPROBANTE_RESPONSE]: z.union([
    z.object({ codigo: z.literal('200'), descripcion: z.string() }),
    z.object({ error: errorFieldSchema }),
  ]),
});

export const comprobantePdfRequestSchema = z
  .object({ token: z.string().min(1).max(128), idTransaccion: z.string().regex(/^[0-9a-f]{32}$/) })
  .strict();

/** The Authorization header of call 8, built from the RUT and the session token. */
export const notificationAuthorization = (rut: string, token: string) =>
  `Basic ${btoa(`${rut}:${token}`)}`;
