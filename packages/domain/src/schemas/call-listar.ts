import { z } from 'zod';
import { canalSchema } from './wire';
import { LISTAR_PRODUCTOS_REQUEST } from '../call-listar';

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

export { listarProductosOkSchema } from './answers';
