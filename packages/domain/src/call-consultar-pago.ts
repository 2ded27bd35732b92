import { z } from 'zod';
import { canalSchema } from './wire-schemas';
import { errorFieldSchema } from './envelope';
import type { Family } from './families';

export const CONSULTAR_PAGO_PATH = '/prod/pago/consultar';
export const CONSULTAR_PAGO_REQUEST = 'consultarPagoRequest';
export const CONSULTAR_PAGO_RESPONSE = 'consultarPagoResponse';

export const MEDIO_PAGO_CUENTA_VISTA = 'CUENTA VISTA';
export const MEDIO_PAGO_WEBPAY = 'WEBPAY';

/** Spec §3 'Voucher payment': the description each family's payments carry. */
export const DESCRIPCION_PRODUCTO: Readonly<Record<Family, string>> = {
  AH: 'CUENTAS DE AHORRO',
  CP: 'CUOTAS DE PARTICIPACIÓN',
  TC: 'TARJETA DE CREDITO',
  PC: 'CREDITO DE CONSUMO',
  HI: 'CREDITO HIPOTECARIO',
  PM: 'CREDITO MYPE',
};

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

/** 'cam***@example.cl': only the first 3 characters of the local part are shown (spec §9). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '';
  const local = email.slice(0, at);
  return `${local.slice(0, 3)}${'*'.repeat(Math.max(3, local.length - 3))}${email.slice(at)}`;
}
