import * as z from 'zod/mini';
import { MEDIO_PAGO_CUENTA_VISTA, MEDIO_PAGO_WEBPAY } from '../call-consultar-pago';
import { CODIGO_OK } from '../call-seleccionar';
import type { DetalleError } from '../errors';
import { familySchema } from './wire';

// Every call's answer, once: the API declares these as its routes' response schemas (Fastify serialises with them and
// /docs documents them), and the web checks each answer with them. zod/mini, so that a screen reading an answer
// downloads a few kilobytes of validation rather than the whole library; the requests' schemas, read by the server
// only, are in the call-*.ts files.

/** A value the wire sends as one object or as a list of them (DESIGN §3): the schema of what asArray reads. */
export const oneOrManyOf = <T extends z.core.SomeType>(item: T) => z.union([item, z.array(item)]);

/** The same, with at least one item in a list. */
export const oneOrMoreOf = <T extends z.core.SomeType>(item: T) => z.union([item, z.array(item).check(z.minLength(1))]);

// ---- The error envelope ----

/** The wire form of DetalleError (DESIGN §3). */
export const detalleErrorSchema = z.object({
  codigo: z.string().check(z.minLength(1)),
  descripcion: z.string(),
}) satisfies z.ZodMiniType<DetalleError>;

/** The value of a response's `error` field. */
export const errorFieldSchema = z.object({ errores: z.object({ detalleError: detalleErrorSchema }) });

/** The error branch of any response: `{ error: { errores: { detalleError } } }`. */
export const errorResponseSchema = z.object({ error: errorFieldSchema });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** A call's whole answer: `{ [responseName]: ok }` or `{ [responseName]: { error } }`. */
export function answerSchema<N extends string, T extends z.core.SomeType>(responseName: N, ok: T) {
  return z.object({ [responseName]: z.union([ok, errorResponseSchema]) } as { [K in N]: z.ZodMiniUnion<[T, typeof errorResponseSchema]> });
}

/** An answer that is only the envelope's error: what a call answers with a 4xx or 5xx status. */
export function errorAnswerSchema<N extends string>(responseName: N) {
  return z.object({ [responseName]: errorResponseSchema } as { [K in N]: typeof errorResponseSchema });
}

const int = () => z.int();
const nonNegativeInt = () => z.int().check(z.nonnegative());

// ---- Call 1 (spec §7.1) ----

// nombre is any string: the server may hold parameters this build does not know yet (see toParameterMap).
export const parametroSchema = z.object({ nombre: z.string(), valor: z.string() });
export type Parametro = z.infer<typeof parametroSchema>;
export const consultarParametrosOkSchema = z.object({ listaParametros: z.object({ parametro: oneOrManyOf(parametroSchema) }) });

// ---- Call 2 (spec §7.2) ----

/** 'V' overdue (vencida), 'A' current (al día). */
export const estadoCuotaSchema = z.enum(['V', 'A']);
export type EstadoCuota = z.infer<typeof estadoCuotaSchema>;

/** One instalment (or the billed statement of a card, or the single entry of a savings account). */
export const detalleCuotaSchema = z.object({
  numeroCuota: nonNegativeInt(),
  montoPendiente: nonNegativeInt(),
  pagoMinimo: nonNegativeInt(),
  /** yyyymmdd */
  fechaVencimiento: z.string(),
  codigoEstadoCuota: estadoCuotaSchema,
  diasMora: nonNegativeInt(),
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
  listaDetalleProductos: oneOrManyOf(detalleCuotaSchema),
  permiteAbono: z.boolean(),
  permiteMultipleAbono: z.boolean(),
  montoMinimoAbonoMultiple: nonNegativeInt(),
  /** yyyymmdd, '' when there is no promotion. */
  fechaVigenciaAbono: z.string(),
  /** Cards only: last billing date, yyyymmdd. */
  fechaFacturacion: z.optional(z.string()),
});
export type Producto = z.infer<typeof productoSchema>;

export const listarProductosOkSchema = z.object({
  /** Session token: opaque, bound to the RUT, sent back with every later call. */
  token: z.string().check(z.minLength(1)),
  listaProductos: z.array(productoSchema),
});

/**
 * Beyond the spec: the families' availability by the server's business clock (GET /api/disponibilidad), so that the
 * screens never judge opening hours by the phone's clock. cierre and apertura are 'HH:MM', Santiago time.
 */
export const disponibilidadOkSchema = z.object({
  disponibilidad: z.array(
    z.object({ tipoFamiliaProducto: familySchema, disponible: z.boolean(), cierre: z.string(), apertura: z.string() }),
  ),
});
export type Disponibilidad = z.infer<typeof disponibilidadOkSchema>['disponibilidad'];

// ---- Call 3 (spec §7.3) ----

/** The pending transaction and the total the server computed. */
export const seleccionarProductoOkSchema = z.object({
  codigo: z.literal(CODIGO_OK),
  idTransaccion: z.string().check(z.minLength(1)),
  montoTotal: z.int().check(z.positive()),
});

// ---- Calls 4 to 6 (spec §7.4 to §7.6) ----

/** 1 the coordinate card, 2 the mobile authoriser (preferred when both exist). */
export const factorSchema = z.union([z.literal(1), z.literal(2)]);
export type Factor = z.infer<typeof factorSchema>;

export const autenticaOkSchema = z.object({
  codigo: z.literal(CODIGO_OK),
  numeroCuenta: z.string(),
  factores: z.array(z.object({ factor: factorSchema })),
});

export const autorizarOkSchema = z.object({
  codigo: z.literal(CODIGO_OK),
  numeroCuenta: z.string(),
  /** Factor 1: the three cells to answer, e.g. 'B3'. */
  desafio: z.optional(z.object({ item: z.array(z.object({ valor: z.string() })) })),
  /** Seconds the challenge or the push stays valid. */
  vigencia: int(),
});

export const productoPagadoSchema = z.object({
  idTransaccion: z.string(),
  numeroProducto: z.string(),
  montoPagado: int(),
  numeroAutorizacion: z.string(),
});
export type ProductoPagado = z.infer<typeof productoPagadoSchema>;
export const pagarOkSchema = z.object({ productoPagadoCV: oneOrMoreOf(productoPagadoSchema) });

// ---- Call 7 (spec §7.7) ----

export const detallePagoSchema = z.object({
  numeroCuota: int(),
  montoPagado: int(),
  numeroAutorizacion: z.string(),
  cantidadCuotas: int(),
});
export type DetallePago = z.infer<typeof detallePagoSchema>;

/** Spec §3 'Voucher payment (pago)'. */
export const pagoSchema = z.object({
  numeroProducto: z.string(),
  descripcionProducto: z.string(),
  /** Beyond the spec: the family's code, which every channel draws the voucher from (absent on vouchers older than it). */
  tipoFamiliaProducto: z.optional(familySchema),
  detallePago: oneOrManyOf(detallePagoSchema),
  rutDeudor: z.string(),
  /** yyyymmdd */
  fechaPago: z.string(),
  /** HH:MM:SS, business time */
  horaPago: z.string(),
  medioPago: z.enum([MEDIO_PAGO_CUENTA_VISTA, MEDIO_PAGO_WEBPAY]),
  idTransaccion: z.string(),
  cuentaPago: z.string(),
  /** The member's e-mail, masked after the first 3 characters of the local part ('' when unknown). */
  email: z.string(),
});
export type Pago = z.infer<typeof pagoSchema>;
export const consultarPagoOkSchema = z.object({
  listaPago: z.object({ pago: oneOrMoreOf(pagoSchema) }),
  /** Beyond the spec: the voucher's verification code (voucher-verification.ts); absent on vouchers older than it. */
  codigoVerificacion: z.optional(z.string()),
});

/**
 * Beyond the spec: what the public verification page shows of a paid voucher, and nothing else about the member.
 * fecha yyyymmdd, hora HH:MM:SS (business time).
 */
export const verificacionOkSchema = z.object({
  verificacion: z.object({
    fecha: z.string(),
    hora: z.string(),
    monto: int(),
    medioPago: z.enum([MEDIO_PAGO_CUENTA_VISTA, MEDIO_PAGO_WEBPAY]),
    /** The products by the voucher's names ('Crédito MYPE') and masked numbers. */
    productos: z.array(z.object({ descripcion: z.string(), numero: z.string() })),
    /** The member whose products were paid, masked as the voucher shows it ('**.***.111-1'). */
    rutSocio: z.string(),
    registrado: z.literal(true),
    /** The cooperative reversed the payment after (decision 050): the money went back, the voucher no longer holds. */
    anulado: z.boolean(),
  }),
});
export type Verificacion = z.infer<typeof verificacionOkSchema>['verificacion'];

// ---- Call 8 (spec §7.8) and call 11 (spec §7.11) ----

export const enviarComprobanteOkSchema = z.object({ codigo: z.literal(CODIGO_OK), descripcion: z.string() });
export const guardarLogOkSchema = z.object({ codigo: z.literal(CODIGO_OK) });

// ---- Calls 9 and 10 (spec §7.9, §7.10): the payment host, without the cooperative's envelope ----

/** The host's code: 0 is success. It answers a number; a string of digits reads the same. */
const hostCodeSchema = z.union([z.int(), z.string().check(z.regex(/^-?\d+$/))]);

/** A refusal of the payment host: a code other than 0, with the catalogue's description. */
export const hostRefusalSchema = z.object({
  code: hostCodeSchema.check(z.refine((code) => Number(code) !== 0)),
  descripcion: z.string(),
});

/** Call 9: the payment host's token for this transaction. */
export const authOkSchema = z.object({
  code: hostCodeSchema.check(z.refine((code) => Number(code) === 0)),
  token: z.string().check(z.minLength(1), z.maxLength(512)),
});

function isWebUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** Call 10: Webpay's token and its card form's URL; the form is posted there, so nothing but a web address will do. */
export const initMallOkSchema = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(64)),
  url: z.string().check(z.maxLength(255), z.refine(isWebUrl)),
});

// ---- The captcha's challenge (ALTCHA v2), for call 2 and call 4 ----

export const captchaChallengeSchema = z.looseObject({
  parameters: z.looseObject({ algorithm: z.string(), nonce: z.string(), salt: z.string() }),
  signature: z.optional(z.string()),
});
