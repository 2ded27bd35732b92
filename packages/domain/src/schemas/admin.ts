import * as z from 'zod/mini';
import { CODIGO_OK } from '../call-seleccionar';
import { CHANGE_KINDS, PERMISSIONS, ROLES } from '../operator-roles';
import { REVERSAL_STEPS } from '../state-words';
import { AUTHORIZATION_MOVES, CORE_OPERATION_KINDS, CORE_OPERATION_MOVES, ITEM_MOVES, OPERATOR_CHANGE_MOVES, TRANSACTION_MOVES, WEBPAY_ATTEMPT_MOVES } from '../payment-states';
import { familySchema } from './wire';
import { CLOSE_CAUSES } from '../day-close';

// The operator API's answers, once: its routes declare them as their response schemas (Fastify serialises with
// them) and the console parses every answer with them (apps/console/src/api.ts), so the two cannot drift apart.

const keysOf = <T extends Record<string, unknown>>(table: T) => Object.keys(table) as [keyof T & string, ...(keyof T & string)[]];

export const transactionStatusSchema = z.enum(keysOf(TRANSACTION_MOVES));
export const itemStatusSchema = z.enum(keysOf(ITEM_MOVES));
export const authorizationStatusSchema = z.enum(keysOf(AUTHORIZATION_MOVES));
export const webpayAttemptStatusSchema = z.enum(keysOf(WEBPAY_ATTEMPT_MOVES));
export const coreOperationStatusSchema = z.enum(keysOf(CORE_OPERATION_MOVES));
export const operatorChangeStatusSchema = z.enum(keysOf(OPERATOR_CHANGE_MOVES));
export const permissionSchema = z.enum(PERMISSIONS);
export const roleSchema = z.enum(ROLES);

/** An instant: the API holds a Date, the wire an ISO string, the console a Date again. */
export const instantSchema = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (iso) => new Date(iso),
  encode: (date) => date.toISOString(),
});

const int = () => z.int();
const amount = () => z.int().check(z.nonnegative());

export const codigoOkSchema = z.object({ codigo: z.literal('OK') });
/** The operations' calls answer the member calls' success code. */
export const codigoHechoSchema = z.object({ codigo: z.literal(CODIGO_OK) });

// ---- The operator's session ----

export const sessionSchema = z.object({
  sesion: z.nullable(z.object({ nombre: z.string(), roles: z.array(roleSchema), permisos: z.array(permissionSchema), csrf: z.string() })),
});
export type OperatorSession = NonNullable<z.infer<typeof sessionSchema>['sesion']>;

// ---- Four eyes ----

export const changeKindSchema = z.enum(CHANGE_KINDS);
export const changeSchema = z.object({
  id: z.uuid(),
  tipo: changeKindSchema,
  objetivo: z.string(),
  propuesta: z.record(z.string(), z.unknown()),
  estado: operatorChangeStatusSchema,
  propuestoPor: z.string(),
  decididoPor: z.nullable(z.string()),
  creado: instantSchema,
  vence: instantSchema,
  decidido: z.nullable(instantSchema),
  /** What the approval did, in Spanish where staff read it (a refund: what Webpay gave back, or why it refused). */
  resultado: z.nullable(z.record(z.string(), z.unknown())),
  /** The operator's own proposal (or their token's): the console offers no approval for it (the server refuses one anyway). */
  propio: z.boolean(),
});
export type Change = z.output<typeof changeSchema>;
export const changesSchema = z.object({ cambios: z.array(changeSchema) });
export const oneChangeSchema = z.object({ cambio: changeSchema });

// ---- Parameters ----

export const parametersSchema = z.object({ parametros: z.array(z.object({ nombre: z.string(), valor: z.string(), actualizado: instantSchema })) });
export const parameterChangedSchema = z.object({ nombre: z.string(), valor: z.string(), anterior: z.string() });

// ---- The dashboard ----

export const summarySchema = z.object({
  fecha: z.string(),
  pagos: z.array(z.object({ medioPago: z.string(), familia: familySchema, cantidad: int(), monto: amount() })),
  webpayPendientes: int(),
  webpayApartados: int(),
  corePendientes: int(),
  coreRechazados: int(),
  coreMasAntiguoSegundos: z.number(),
  cambiosPendientes: int(),
  diferenciasWebpayHoy: int(),
  baseDeDatos: z.boolean(),
});
export type Summary = z.output<typeof summarySchema>;

// ---- A member, a transaction ----

export const deviceSchema = z.object({ id: z.uuid(), nombre: z.string(), enrolado: instantSchema, revocado: z.nullable(instantSchema) });
export const devicesSchema = z.object({ dispositivos: z.array(deviceSchema) });

export const memberSchema = z.object({
  rut: z.string(),
  nombre: z.string(),
  correo: z.nullable(z.string()),
  clave: z.enum(['activa', 'bloqueada', 'sin clave']),
  claveBloqueadaHasta: z.nullable(instantSchema),
  tarjeta: z.enum(['activa', 'bloqueada', 'sin tarjeta']),
  dispositivos: z.array(deviceSchema),
  transacciones: z.array(
    z.object({
      idTransaccion: z.string(),
      familia: familySchema,
      total: amount(),
      estado: transactionStatusSchema,
      medioPago: z.nullable(z.string()),
      creada: instantSchema,
      pagada: z.nullable(instantSchema),
      comprobante: z.boolean(),
    }),
  ),
  /** What this member paid from their cuenta vista for other members' products (the holder's RUT masked). */
  pagosATerceros: z.array(
    z.object({
      idTransaccion: z.string(),
      socio: z.string(),
      familia: familySchema,
      total: amount(),
      estado: transactionStatusSchema,
      medioPago: z.nullable(z.string()),
      cuentaDebitada: z.nullable(z.string()),
      creada: instantSchema,
      pagada: z.nullable(instantSchema),
    }),
  ),
});
export type Member = z.output<typeof memberSchema>;

/** A page of the payments search (either side's RUT masked). */
export const paymentsPageSchema = z.object({
  total: int(),
  pagina: int(),
  porPagina: int(),
  pagos: z.array(
    z.object({
      idTransaccion: z.string(),
      socio: z.string(),
      pagador: z.nullable(z.string()),
      nombrePagador: z.nullable(z.string()),
      cuentaDebitada: z.nullable(z.string()),
      familia: familySchema,
      total: amount(),
      estado: transactionStatusSchema,
      medioPago: z.nullable(z.string()),
      creada: instantSchema,
      pagada: z.nullable(instantSchema),
      codigoVerificacion: z.nullable(z.string()),
      ordenesCompra: z.array(z.string()),
    }),
  ),
});
export type PaymentsPage = z.output<typeof paymentsPageSchema>;
export const auditKindsSchema = z.object({ tipos: z.array(z.string()) });

export const auditEventSchema = z.object({
  id: int(),
  at: instantSchema,
  kind: z.string(),
  rutMasked: z.nullable(z.string()),
  requestId: z.nullable(z.string()),
  detail: z.unknown(),
});
export type AuditEvent = z.output<typeof auditEventSchema>;
export const auditEventsSchema = z.object({ eventos: z.array(auditEventSchema) });

/** A transaction as the agent reads it: every line under its product, every attempt, the core's operations, the trail. */
export const transactionViewSchema = z.object({
  transaccion: z.object({
    idTransaccion: z.string(),
    familia: familySchema,
    total: amount(),
    estado: transactionStatusSchema,
    medioPago: z.nullable(z.string()),
    creada: instantSchema,
    cerrada: z.nullable(instantSchema),
  }),
  /** Who paid from a cuenta vista (RUT and account masked), once someone signed in to pay. */
  pagador: z.nullable(z.object({ rut: z.string(), nombre: z.nullable(z.string()), cuentaDebitada: z.nullable(z.string()), esElSocio: z.boolean() })),
  lineas: z.array(
    z.object({
      id: z.uuid(),
      familia: familySchema,
      numeroProducto: z.string(),
      numeroCuota: int(),
      monto: amount(),
      /** YYYY-MM-DD; null for a savings deposit. */
      fechaVencimiento: z.nullable(z.string()),
      autorizacion: z.nullable(z.string()),
      estado: itemStatusSchema,
    }),
  ),
  autorizaciones: z.array(
    z.object({ factor: z.union([z.literal(1), z.literal(2)]), estado: authorizationStatusSchema, monto: amount(), creada: instantSchema, decidida: z.nullable(instantSchema) }),
  ),
  webpay: z.array(z.object({ ordenCompra: z.string(), estado: webpayAttemptStatusSchema, monto: amount(), creado: instantSchema, resuelto: z.nullable(instantSchema) })),
  core: z.array(
    z.object({
      clave: z.string(),
      tipo: z.enum(CORE_OPERATION_KINDS),
      estado: coreOperationStatusSchema,
      monto: amount(),
      intentos: int(),
      motivo: z.nullable(z.string()),
      creada: instantSchema,
      registrada: z.nullable(instantSchema),
    }),
  ),
  comprobante: z.nullable(z.object({ emitido: instantSchema })),
  /** Its reversal (decision 050): who proposed and approved it, why, and where it stands, in words. */
  anulacion: z.nullable(
    z.object({
      cambio: z.uuid(),
      estadoCambio: operatorChangeStatusSchema,
      propuestoPor: z.string(),
      aprobadoPor: z.nullable(z.string()),
      motivo: z.string(),
      propuesto: instantSchema,
      decidido: z.nullable(instantSchema),
      paso: z.nullable(z.enum(REVERSAL_STEPS)),
      texto: z.nullable(z.string()),
      motivoPaso: z.nullable(z.string()),
    }),
  ),
  auditoria: z.array(auditEventSchema),
});
export type TransactionView = z.output<typeof transactionViewSchema>;

// ---- Loads, reconciliation, refunds ----

export const importReportSchema = z.object({
  recibidos: int(),
  aceptados: int(),
  rechazados: z.array(z.object({ fila: int(), rut: z.string(), motivos: z.array(z.string()) })),
});
export type ImportReport = z.output<typeof importReportSchema>;

export const enrolmentCodeSchema = z.object({ codigo: z.string(), vigenciaDias: int() });

export const webpayReportSchema = z.object({
  fecha: z.string(),
  conciliadas: int(),
  diferencias: int(),
  lineas: z.array(
    z.object({
      ordenCompra: z.nullable(z.string()),
      idTransaccion: z.string(),
      estadoWebpay: z.nullable(webpayAttemptStatusSchema),
      estadoPago: transactionStatusSchema,
      monto: z.number(),
      resultado: z.string(),
    }),
  ),
});
export type WebpayReport = z.output<typeof webpayReportSchema>;

export const coreReportSchema = z.object({
  fecha: z.string(),
  conciliadas: int(),
  diferencias: int(),
  lineas: z.array(
    z.object({
      clave: z.string(),
      idTransaccion: z.nullable(z.string()),
      tipo: z.nullable(z.enum(CORE_OPERATION_KINDS)),
      estadoAqui: z.nullable(coreOperationStatusSchema),
      montoAqui: z.nullable(z.number()),
      montoCore: z.nullable(z.number()),
      /** 'anulada': given back by a reversal (decision 050), or the reversal itself. */
      resultado: z.enum(['conciliada', 'pendiente', 'falta en el core', 'falta aquí', 'monto distinto', 'anulada']),
    }),
  ),
});
export type CoreReport = z.output<typeof coreReportSchema>;

// ---- The day's close, three-way (decision 049) ----

export const closeCauseSchema = z.enum(keysOf(CLOSE_CAUSES));
const closeTotalSchema = z.object({ clave: z.nullable(z.string()), nuestro: amount(), webpay: amount(), core: amount() });
export const dayCloseSchema = z.object({
  fecha: z.string(),
  /** Today's business day: a day closes once it is over. */
  hoy: z.string(),
  diferencias: int(),
  lineas: z.array(
    z.object({
      idTransaccion: z.nullable(z.string()),
      familia: z.nullable(z.string()),
      medioPago: z.nullable(z.string()),
      nuestro: z.object({ estado: z.nullable(transactionStatusSchema), monto: amount() }),
      webpay: z.nullable(
        z.object({
          monto: amount(),
          tiendas: z.array(z.object({ ordenCompra: z.string(), codigoComercio: z.string(), monto: amount(), estado: webpayAttemptStatusSchema })),
        }),
      ),
      core: z.object({
        monto: amount(),
        posteos: z.array(
          z.object({
            clave: z.string(),
            tipo: z.enum(CORE_OPERATION_KINDS),
            estado: coreOperationStatusSchema,
            monto: amount(),
            montoCore: z.nullable(amount()),
            codigoComercio: z.nullable(z.string()),
          }),
        ),
      }),
      causas: z.array(closeCauseSchema),
    }),
  ),
  porFamilia: z.array(closeTotalSchema),
  porCodigoComercio: z.array(closeTotalSchema),
  cierre: z.discriminatedUnion('estado', [
    z.object({ estado: z.literal('abierto') }),
    z.object({ estado: z.literal('cerrado'), cerradoPor: z.string(), propuestoPor: z.string(), cerrado: instantSchema }),
    z.object({ estado: z.literal('reabierto'), cerradoPor: z.string(), propuestoPor: z.string(), cerrado: instantSchema, reabierto: instantSchema, motivo: z.string() }),
  ]),
  /** A close of this day waiting for a second finance operator. */
  propuesta: z.nullable(changeSchema),
});
export type DayClose = z.output<typeof dayCloseSchema>;

export const refusedCreditsSchema = z.object({
  abonos: z.array(z.object({ clave: z.string(), idTransaccion: z.string(), familia: z.nullable(familySchema), monto: amount(), motivo: z.nullable(z.string()), creado: instantSchema })),
});
export type RefusedCredit = z.output<typeof refusedCreditsSchema>['abonos'][number];

export const setAsideChargesSchema = z.object({
  cobros: z.array(
    z.object({ ordenCompra: z.string(), idTransaccion: z.string(), monto: amount(), estadoPago: transactionStatusSchema, apartado: z.nullable(instantSchema), devolucionPropuesta: z.boolean() }),
  ),
});
export type SetAsideCharge = z.output<typeof setAsideChargesSchema>['cobros'][number];

// ---- Tokens and roles ----

export const tokenSchema = z.object({
  id: z.uuid(),
  nombre: z.string(),
  alcances: z.array(permissionSchema),
  creadoPor: z.string(),
  creado: instantSchema,
  aprobadoPor: z.nullable(z.string()),
  aprobado: z.nullable(instantSchema),
  ultimoUso: z.nullable(instantSchema),
  revocado: z.nullable(instantSchema),
});
export type Token = z.output<typeof tokenSchema>;
export const tokensSchema = z.object({ tokens: z.array(tokenSchema) });
export const tokenIssuedSchema = z.object({ token: tokenSchema, secreto: z.string() });
export const tokenAskedSchema = z.object({ token: tokenSchema, secreto: z.string(), cambio: changeSchema });

export const assignedRolesSchema = z.object({
  operadores: z.array(z.object({ sujeto: z.string(), roles: z.array(roleSchema), asignadoPor: z.string(), actualizado: instantSchema })),
});
export type AssignedRoles = z.output<typeof assignedRolesSchema>['operadores'][number];

/** What an operator's action on a member answers: done, an enrolment code, or a change proposed to a second person. */
export const memberActionSchema = z.union([codigoHechoSchema, codigoOkSchema, enrolmentCodeSchema, oneChangeSchema]);
