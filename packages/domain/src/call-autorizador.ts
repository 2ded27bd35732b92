import { z } from 'zod';
import { CODIGO_OK } from './call-seleccionar';

// The mobile authoriser's protocol (docs/authoriser.md): what the cooperative's app sends and receives, and the exact
// bytes its device key signs. The server rebuilds each signed message from its own records, never from the request.

export const PROTOCOL = 'pago-online-autorizador/v1';

export const ENROLAR_PATH = '/api/autorizador/enrolar';
export const PENDIENTES_PATH = '/api/autorizador/pendientes';
export const DECISION_PATH = '/api/autorizador/decision';
export const ENROLAR_REQUEST = 'enrolarDispositivoRequest';
export const ENROLAR_RESPONSE = 'enrolarDispositivoResponse';
export const PENDIENTES_REQUEST = 'solicitudesPendientesRequest';
export const PENDIENTES_RESPONSE = 'solicitudesPendientesResponse';
export const DECISION_REQUEST = 'decidirSolicitudRequest';
export const DECISION_RESPONSE = 'decidirSolicitudResponse';

/** How far a device's clock may be from the server's when it asks for its pending requests. */
export const DEVICE_CLOCK_SKEW_SECONDS = 120;

const base64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+$/, 'base64url without padding');
/** An ECDSA P-256 public key: SubjectPublicKeyInfo DER (what WebCrypto's exportKey('spki') gives), base64url. */
const publicKeyField = base64url(200);
/** An ECDSA P-256 / SHA-256 signature in IEEE P1363 form (r ‖ s, 64 bytes: WebCrypto's), base64url. */
const signatureField = base64url(100);
/** A line of a signed message holds no line break or other control character. */
const lineText = (max: number) => z.string().min(1).max(max).regex(/^[^\p{Cc}]+$/u, 'no control characters');

export const decisionSchema = z.enum(['aprobar', 'rechazar']);
export type Decision = z.infer<typeof decisionSchema>;

export const enrolarRequestSchema = z
  .object({
    [ENROLAR_REQUEST]: z
      .object({ codigo: z.string().min(1).max(64), clavePublica: publicKeyField, nombre: lineText(60), firma: signatureField })
      .strict(),
  })
  .strict();
export type EnrolarRequest = z.infer<typeof enrolarRequestSchema>[typeof ENROLAR_REQUEST];
export const enrolarOkSchema = z.object({ codigo: z.literal(CODIGO_OK), dispositivo: z.uuid() });

export const pendientesRequestSchema = z
  .object({ [PENDIENTES_REQUEST]: z.object({ dispositivo: z.uuid(), fecha: z.iso.datetime(), firma: signatureField }).strict() })
  .strict();
export type PendientesRequest = z.infer<typeof pendientesRequestSchema>[typeof PENDIENTES_REQUEST];

/** A payment waiting for the member's decision: what the app shows, and with the nonce, what it signs. */
export const solicitudSchema = z.object({
  solicitud: z.uuid(),
  idTransaccion: z.string(),
  monto: z.number().int(),
  /** The debited checking account, masked as the member's screens mask it. */
  cuenta: z.string(),
  /** The products paid (their owner's: the beneficiary), masked as the screens mask them. */
  productos: z.array(z.string()),
  /** The family's name, for the app's title; not signed. */
  descripcion: z.string(),
  rutPagador: z.string(),
  expira: z.iso.datetime(),
  nonce: z.string(),
});
export type Solicitud = z.infer<typeof solicitudSchema>;
export const pendientesOkSchema = z.object({ codigo: z.literal(CODIGO_OK), solicitudes: z.array(solicitudSchema) });

export const decisionRequestSchema = z
  .object({
    [DECISION_REQUEST]: z.object({ dispositivo: z.uuid(), solicitud: z.uuid(), decision: decisionSchema, firma: signatureField }).strict(),
  })
  .strict();
export type DecisionRequest = z.infer<typeof decisionRequestSchema>[typeof DECISION_REQUEST];
export const decisionOkSchema = z.object({ codigo: z.literal(CODIGO_OK), decision: decisionSchema });

/** What AUTHORISER_WEBHOOK_URL receives when a payment waits for a device: enough to wake it, nothing to show. */
export const webhookBodySchema = z.object({ evento: z.literal('solicitud'), dispositivo: z.uuid(), solicitud: z.uuid(), expira: z.iso.datetime() });
export type WebhookBody = z.infer<typeof webhookBodySchema>;

// The signed messages: UTF-8 lines joined by '\n', no final line break.
const message = (...lines: string[]) => [PROTOCOL, ...lines].join('\n');

/** Enrolment: proves the device holds the private key of the public key it registers. */
export const enrolmentMessage = (m: { codigo: string; clavePublica: string; nombre: string }) =>
  message('enrolar', `codigo:${m.codigo}`, `clave:${m.clavePublica}`, `nombre:${m.nombre}`);

/** Asking for pending requests: `fecha` as the request sends it. */
export const pendingMessage = (m: { dispositivo: string; fecha: string }) => message('pendientes', `dispositivo:${m.dispositivo}`, `fecha:${m.fecha}`);

/** The decision on one payment, bound to everything the member was shown and to the server's nonce. */
export const decisionMessage = (m: { decision: Decision } & Omit<Solicitud, 'descripcion'>) =>
  message(
    `decision:${m.decision}`,
    `solicitud:${m.solicitud}`,
    `transaccion:${m.idTransaccion}`,
    `monto:${m.monto}`,
    `cuenta:${m.cuenta}`,
    `productos:${m.productos.join(',')}`,
    `rutPagador:${m.rutPagador}`,
    `expira:${m.expira}`,
    `nonce:${m.nonce}`,
  );
