import {
  DECISION_REQUEST,
  decisionMessage,
  ENROLAR_REQUEST,
  enrolmentMessage,
  PENDIENTES_REQUEST,
  pendingMessage,
  type Decision,
  type Solicitud,
} from '@pago/domain/call-autorizador';
import { webcrypto } from 'node:crypto';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const base64url = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('base64url');

/**
 * A member's phone as the authoriser protocol sees it (docs/authoriser.md), on WebCrypto as the app's would be: a
 * P-256 key whose private half cannot be exported, and the request bodies it sends, signed.
 */
export class AuthoriserDevice {
  dispositivo: string | null = null;

  private constructor(
    private readonly keys: webcrypto.CryptoKeyPair,
    readonly clavePublica: string,
  ) {}

  static async create(): Promise<AuthoriserDevice> {
    const keys = await webcrypto.subtle.generateKey(ALGORITHM, false, ['sign', 'verify']);
    return new AuthoriserDevice(keys, base64url(await webcrypto.subtle.exportKey('spki', keys.publicKey)));
  }

  async sign(message: string): Promise<string> {
    return base64url(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.keys.privateKey, new TextEncoder().encode(message)));
  }

  async enrolment(codigo: string, nombre = 'Teléfono de prueba') {
    const fields = { codigo, clavePublica: this.clavePublica, nombre };
    return { [ENROLAR_REQUEST]: { ...fields, firma: await this.sign(enrolmentMessage(fields)) } };
  }

  async pendingRequest(fecha = new Date().toISOString()) {
    const dispositivo = this.id();
    return { [PENDIENTES_REQUEST]: { dispositivo, fecha, firma: await this.sign(pendingMessage({ dispositivo, fecha })) } };
  }

  /** A decision on what the device was shown; `signed` lets a test sign something else than what it sends. */
  async decision(solicitud: Solicitud, decision: Decision, signed: Partial<Solicitud> & { decision?: Decision } = {}) {
    const firma = await this.sign(decisionMessage({ ...solicitud, decision, ...signed }));
    return { [DECISION_REQUEST]: { dispositivo: this.id(), solicitud: solicitud.solicitud, decision, firma } };
  }

  private id(): string {
    if (!this.dispositivo) throw new Error('the device is not enrolled');
    return this.dispositivo;
  }
}
