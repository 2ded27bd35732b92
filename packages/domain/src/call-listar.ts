import { z } from 'zod';
import { canalSchema } from './wire-schemas';
import { errorFieldSchema } from './envelope';
import { productoSchema } from './products';
import { LISTAR_PRODUCTOS_REQUEST, LISTAR_PRODUCTOS_RESPONSE } from './call-listar-plain';

export * from './call-listar-plain';

/** Call 2 (spec §7.2). The captcha solution travels in the Authorization header. */
export const listarProductosRequestSchema = z
  .object({
    [LISTAR_PRODUCTOS_REQUEST]: z
      .object({
        userId: z.string().min(1).max(64),
        canalLlamada: canalSchema,
        rut: z.string().min(1).max(16),
      })
      .strict(),
  })
  .strict();
export type ListarProductosRequest = z.infer<typeof listarProductosRequestSchema>;

export const listarProductosOkSchema = z.object({
  /** Session token: opaque, bound to the RUT, sent back with every later call. */
  token: z.string(),
  listaProductos: z.array(productoSchema),
});

export const listarProductosResponseSchema = z.object({
  [LISTAR_PRODUCTOS_RESPONSE]: z.union([listarProductosOkSchema, z.object({ error: errorFieldSchema })]),
});
export type ListarProductosResponse = z.infer<typeof listarProductosResponseSchema>;
