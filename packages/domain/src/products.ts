import { z } from 'zod';
import { familySchema } from './wire-schemas';

export * from './products-plain';

/** 'V' overdue (vencida), 'A' current (al día). */
export const estadoCuotaSchema = z.enum(['V', 'A']);
export type EstadoCuota = z.infer<typeof estadoCuotaSchema>;

/** One instalment (or the billed statement of a card, or the single entry of a savings account). */
export const detalleCuotaSchema = z.object({
  numeroCuota: z.number().int().nonnegative(),
  montoPendiente: z.number().int().nonnegative(),
  pagoMinimo: z.number().int().nonnegative(),
  /** yyyymmdd */
  fechaVencimiento: z.string(),
  codigoEstadoCuota: estadoCuotaSchema,
  diasMora: z.number().int().nonnegative(),
  /** 'CONVENIO' for payroll deduction, '' otherwise. */
  medioPago: z.string(),
});
export type DetalleCuota = z.infer<typeof detalleCuotaSchema>;

/**
 * A product as the product list answers it (spec §3 'Product'), without the fields no screen shows (debts, limit,
 * instalment counts). `numeroProducto` is the product's reference in the session, ending with the number's last four
 * digits (apps/api product-view.ts).
 */
export const productoSchema = z.object({
  tipoFamiliaProducto: familySchema,
  nombreFamiliaProducto: z.string(),
  numeroProducto: z.string(),
  /** A list for credits and CP; a single object for savings (AH) and cards (TC). */
  listaDetalleProductos: z.union([detalleCuotaSchema, z.array(detalleCuotaSchema)]),
  permiteAbono: z.boolean(),
  permiteMultipleAbono: z.boolean(),
  montoMinimoAbonoMultiple: z.number().int().nonnegative(),
  /** yyyymmdd, '' when there is no promotion. */
  fechaVigenciaAbono: z.string(),
  /** Cards only: last billing date, yyyymmdd. */
  fechaFacturacion: z.string().optional(),
});
export type Producto = z.infer<typeof productoSchema>;
