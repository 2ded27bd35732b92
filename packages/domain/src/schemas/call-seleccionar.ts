import { z } from 'zod';
import { SELECCIONAR_PRODUCTO_REQUEST } from '../call-seleccionar';
import { kindOf } from '../families';
import { canalSchema, familySchema } from './wire';

/** Spec §3 'Transaction request product': for a savings deposit the cuota is "0" and the date "0". */
export const detalleProductoSchema = z
  .object({
    numeroCuota: z.string().regex(/^\d{1,6}$/),
    valorAPagar: z.number().int().positive().max(9_999_999_999),
    fechaVencimiento: z.string().regex(/^(0|\d{8})$/),
  })
  .strict();
export type DetalleProducto = z.infer<typeof detalleProductoSchema>;

export const productoSeleccionadoSchema = z
  .object({
    numeroProducto: z.string().min(1).max(32),
    tipoFamiliaProducto: familySchema,
    nombreFamiliaProducto: z.string().max(64),
    detalleProducto: z.array(detalleProductoSchema).min(1).max(60),
  })
  .strict()
  // A deposit and a card statement are one line each; a deposit's cuota and date are "0".
  .refine((p) => kindOf(p.tipoFamiliaProducto) !== 'card' || p.detalleProducto.length === 1, 'a card is paid in one line')
  .refine(
    (p) => kindOf(p.tipoFamiliaProducto) !== 'savings' || (p.detalleProducto.length === 1 && p.detalleProducto[0]!.numeroCuota === '0' && p.detalleProducto[0]!.fechaVencimiento === '0'),
    'a deposit is one line with cuota and date "0"',
  );
export type ProductoSeleccionado = z.infer<typeof productoSeleccionadoSchema>;

/** Call 3 (spec §7.3). */
export const seleccionarProductoRequestSchema = z
  .object({
    [SELECCIONAR_PRODUCTO_REQUEST]: z
      .object({
        userId: z.string().min(1).max(64),
        canalLlamada: canalSchema,
        token: z.string().min(1).max(128),
        rut: z.string().min(1).max(16),
        // One family at a time, each product once: what the screens send, and all the call takes.
        producto: z
          .array(productoSeleccionadoSchema)
          .min(1)
          .max(20)
          .refine((ps) => ps.every((p) => p.tipoFamiliaProducto === ps[0]!.tipoFamiliaProducto), 'one family per selection')
          .refine((ps) => new Set(ps.map((p) => p.numeroProducto)).size === ps.length, 'each product once'),
      })
      .strict(),
  })
  .strict();
export type SeleccionarProductoRequest = z.infer<typeof seleccionarProductoRequestSchema>;

export { seleccionarProductoOkSchema } from './answers';
