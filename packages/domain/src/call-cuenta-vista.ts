import { z } from 'zod';
import { canalSchema } from './wire-schemas';
import { errorFieldSchema } from './envelope';

// Calls 4, 5 and 6 (spec §7): paying from the cooperative's own checking account (cuenta vista).

export const AUTENTICA_PATH = '/prod/pago/producto/cuentavista/autentica';
export const AUTENTICA_REQUEST = 'autenticaConsultaFactoresRequest';
export const AUTENTICA_RESPONSE = 'autenticaConsultaFactoresResponse';
export const AUTORIZAR_PATH = '/prod/pago/producto/cuentavista/autorizar';
export const AUTORIZAR_REQUEST = 'autorizarPagoProductoCVRequest';
export const AUTORIZAR_RESPONSE = 'autorizarPagoProductoCVResponse';
export const PAGAR_PATH = '/prod/pago/producto/cuentavista/pagar';
export const PAGAR_REQUEST = 'pagarProductoCVRequest';
export const PAGAR_RESPONSE = 'pagarProductoCVResponse';

/** Spec §9: the online password has at most 8 characters. */
export const PASSWORD_MAX_LENGTH = 8;
/** Spec §9: the authorisation countdown. */
export const AUTHORISATION_SECONDS = 120;
/** 1 the coordinate card, 2 the mobile authoriser (preferred when both exist). */
export const factorSchema = z.union([z.literal(1), z.literal(2)]);
export type Factor = z.infer<typeof factorSchema>;
export const COORDINATE_FACTOR = 1;
export const AUTHORISER_FACTOR = 2;

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

export const autenticaOkSchema = z.object({
  codigo: z.literal('200'),
  numeroCuenta: z.string(),
  factores: z.array(z.object({ factor: factorSchema })),
});
export const autenticaResponseSchema = z.object({
  [AUTENTICA_RESPONSE]: z.union([autenticaOkSchema, z.object({ error: errorFieldSchema })]),
});

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

export const desafioSchema = z.object({ item: z.array(z.object({ valor: z.string() })) });

export const autorizarOkSchema = z.object({
  codigo: z.literal('200'),
  numeroCuenta: z.string(),
  /** Factor 1: the three cells to answer, e.g. 'B3'. */
  desafio: desafioSchema.optional(),
  /** Seconds the challenge or the push stays valid. */
  vigencia: z.number().int(),
});
export const autorizarResponseSchema = z.object({
  [AUTORIZAR_RESPONSE]: z.union([autorizarOkSchema, z.object({ error: errorFieldSchema })]),
});

export const pagarRequestSchema = z
  .object({
    [PAGAR_REQUEST]: z
      .object({
        ...base,
        rutTitular: rutField,
        numeroCuenta: z.string().min(1).max(32),
        rutPago: rutField,
        factor: factorSchema.optional(),
        desafio: z
          .object({ item: z.array(z.object({ valor: z.string().regex(/^\d{2}$/) }).strict()).length(3) })
          .strict()
          .optional(),
      })
      .strict(),
  })
  .strict();
export type PagarRequest = z.infer<typeof pagarRequestSchema>;

export const productoPagadoSchema = z.object({
  idTransaccion: z.string(),
  numeroProducto: z.string(),
  montoPagado: z.number().int(),
  numeroAutorizacion: z.string(),
});
export type ProductoPagado = z.infer<typeof productoPagadoSchema>;

export const pagarResponseSchema = z.object({
  [PAGAR_RESPONSE]: z.union([
    z.object({ productoPagadoCV: z.union([productoPagadoSchema, z.array(productoPagadoSchema)]) }),
    z.object({ error: errorFieldSchema }),
  ]),
});
