import { z } from 'zod';
import { DECISION_REQUEST, ENROLAR_REQUEST, PENDIENTES_REQUEST } from '../call-autorizador';
import { CODIGO_OK } from '../call-seleccionar';

// The mobile authoriser's requests and answers (docs/authoriser.md); its paths and signed messages are in
// call-autorizador.ts.

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
