import { z } from 'zod';
import { TIPO_PARAMETRO } from './channel';
import { canalSchema } from './schemas/wire';

/** Spec §7.1. */
export const CONSULTAR_PARAMETROS_PATH = '/prod/parametro/consultar';
export const CONSULTAR_PARAMETROS_REQUEST = 'consultarParametrosRequest';
export const CONSULTAR_PARAMETROS_RESPONSE = 'consultarParametrosResponse';

export const consultarParametrosRequestSchema = z
  .object({
    consultarParametrosRequest: z
      .object({
        userId: z.string().min(1).max(64),
        canalLlamada: canalSchema,
        tipo: z.literal(TIPO_PARAMETRO),
      })
      .strict(),
  })
  .strict();
export type ConsultarParametrosRequest = z.infer<typeof consultarParametrosRequestSchema>;

export { consultarParametrosOkSchema, parametroSchema, type Parametro } from './schemas/answers';
