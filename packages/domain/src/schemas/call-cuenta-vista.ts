import { z } from 'zod';
import { factorSchema } from './answers';
import { AUTENTICA_REQUEST, AUTORIZAR_REQUEST, PAGAR_REQUEST, PASSWORD_MAX_LENGTH } from '../call-cuenta-vista';
import { canalSchema } from './wire';

// Calls 4, 5 and 6 (spec §7): paying from the cooperative's own checking account (cuenta vista).

export {
  autenticaOkSchema,
  autorizarOkSchema,
  factorSchema,
  pagarOkSchema,
  productoPagadoSchema,
  type Factor,
  type ProductoPagado,
} from './answers';

const rutField = z.string().min(3).max(12);
const base = { userId: z.string().min(1).max(64), canalLlamada: canalSchema, token: z.string().min(1).max(128) };

/** RUT without check digit, check digit, password. */
export const autenticacionSchema = z
  .object({
    rut: z.string().regex(/^\d{1,8}$/),
    dv: z.string().regex(/^[0-9kK]$/),
    clave: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  })
  .strict();

export const autenticaRequestSchema = z
  .object({ [AUTENTICA_REQUEST]: z.object({ ...base, autenticacion: autenticacionSchema }).strict() })
  .strict();
export type AutenticaRequest = z.infer<typeof autenticaRequestSchema>;

export const autorizarRequestSchema = z
  .object({
    [AUTORIZAR_REQUEST]: z
      .object({
        ...base,
        factor: factorSchema,
        /** The member whose products are paid. */
        rut: rutField,
        /** The payer who logged in (the same member, or a third party). */
        rutPago: rutField,
        autenticacion: autenticacionSchema.optional(),
      })
      .strict(),
  })
  .strict();
export type AutorizarRequest = z.infer<typeof autorizarRequestSchema>;

export const pagarRequestSchema = z
  .object({
    [PAGAR_REQUEST]: z
      .object({
        ...base,
        rutTitular: rutField,
        numeroCuenta: z.string().min(1).max(32),
        rutPago: rutField,
        factor: z.optional(factorSchema),
        desafio: z
          .object({ item: z.array(z.object({ valor: z.string().regex(/^\d{2}$/) }).strict()).length(3) })
          .strict()
          .optional(),
      })
      .strict(),
  })
  .strict();
export type PagarRequest = z.infer<typeof pagarRequestSchema>;
