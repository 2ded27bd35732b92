import { z } from 'zod';
import { canalSchema } from './wire';
import { CONSULTAR_PAGO_REQUEST } from '../call-consultar-pago';

export const consultarPagoRequestSchema = z
  .object({
    [CONSULTAR_PAGO_REQUEST]: z
      .object({
        userId: z.string().min(1).max(64),
        canalLlamada: canalSchema,
        idTransaccion: z.string().min(1).max(64),
        token: z.string().min(1).max(128),
      })
      .strict(),
  })
  .strict();
export type ConsultarPagoRequest = z.infer<typeof consultarPagoRequestSchema>;

export { consultarPagoOkSchema, detallePagoSchema, pagoSchema, type DetallePago, type Pago } from './answers';
