import { z } from 'zod';
import { ENVIAR_COMPROBANTE_REQUEST } from '../call-notificaciones';
import { canalSchema } from './wire';

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

export { enviarComprobanteOkSchema } from './answers';

export const comprobantePdfRequestSchema = z
  .object({ token: z.string().min(1).max(128), idTransaccion: z.string().regex(/^[0-9a-f]{32}$/) })
  .strict();
