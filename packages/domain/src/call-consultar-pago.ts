import { z } from 'zod';
import { canalSchema } from './wire-schemas';
import { errorFieldSchema } from './envelope';
import { CONSULTAR_PAGO_REQUEST, CONSULTAR_PAGO_RESPONSE, MEDIO_PAGO_CUENTA_VISTA, MEDIO_PAGO_WEBPAY } from './call-consultar-pago-plain';

export * from './call-consultar-pago-plain';

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

export const detallePagoSchema = z.object({
  numeroCuota: z.number().int(),
  montoPagado: z.number().int(),
  numeroAutorizacion: z.string(),
  cantidadCuotas: z.number().int(),
});
export type DetallePago = z.infer<typeof detallePagoSchema>;

/** Spec §3 'Voucher payment (pago)'. */
export const pagoSchema = z.object({
  numeroProducto: z.string(),
  descripcionProducto: z.string(),
  detallePago: z.union([detallePagoSchema, z.array(detallePagoSchema)]),
  rutDeudor: z.string(),
  /** yyyymmdd */
  fechaPago: z.string(),
  /** HH:MM:SS, business time */
  horaPago: z.string(),
  medioPago: z.enum([MEDIO_PAGO_CUENTA_VISTA, MEDIO_PAGO_WEBPAY]),
  idTransaccion: z.string(),
  cuentaPago: z.string(),
  /** The member's e-mail, masked after the first 3 characters of the local part ('' when unknown). */
  email: z.string(),
});
export type Pago = z.infer<typeof pagoSchema>;

export const consultarPagoResponseSchema = z.object({
  [CONSULTAR_PAGO_RESPONSE]: z.union([
    z.object({ listaPago: z.object({ pago: z.union([pagoSchema, z.array(pagoSchema)]) }) }),
    z.object({ error: errorFieldSchema }),
  ]),
});
