import { pagoSchema } from '@pago/domain/call-consultar-pago';
import { z } from 'zod';

/** Call 7's answer: one payment, or a list of them. */
export const listaPagoSchema = z.object({
  listaPago: z.object({ pago: z.union([pagoSchema, z.array(pagoSchema).min(1)]) }),
});
