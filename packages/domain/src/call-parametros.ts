import { z } from 'zod';
import { TIPO_PARAMETRO } from './channel';
import { canalSchema } from './wire-schemas';
import { errorResponseSchema } from './envelope';

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

// nombre is any string: the server may hold parameters this build does not know yet (see toParameterMap).
export const parametroSchema = z.object({ nombre: z.string(), valor: z.string() });
export type Parametro = z.infer<typeof parametroSchema>;

export const listaParametrosResponseSchema = z.object({
  listaParametros: z.object({ parametro: z.array(parametroSchema) }),
});

export const consultarParametrosResponseSchema = z.object({
  consultarParametrosResponse: z.union([listaParametrosResponseSchema, errorResponseSchema]),
});
export type ConsultarParametrosResponse = z.infer<typeof consultarParametrosResponseSchema>;
