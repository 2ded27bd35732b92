import { z } from 'zod';
import { CONSULTAR_PARAMETROS_REQUEST } from '../call-parametros';
import { TIPO_PARAMETRO } from '../channel';
import { canalSchema } from './wire';

/** Call 1 (spec §7.1). */
export const consultarParametrosRequestSchema = z
  .object({
    [CONSULTAR_PARAMETROS_REQUEST]: z
      .object({
        userId: z.string().min(1).max(64),
        canalLlamada: canalSchema,
        tipo: z.literal(TIPO_PARAMETRO),
      })
      .strict(),
  })
  .strict();
export type ConsultarParametrosRequest = z.infer<typeof consultarParametrosRequestSchema>;

export { consultarParametrosOkSchema, parametroSchema, type Parametro } from './answers';
