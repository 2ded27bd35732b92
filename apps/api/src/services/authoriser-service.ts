import type { AuditEventKind } from '@pago/domain/state-words';
import {
  decisionMessage,
  DEVICE_CLOCK_SKEW_SECONDS,
  enrolmentMessage,
  pendingMessage,
  type Solicitud,
} from '@pago/domain/call-autorizador';
import {
  type DecisionRequest,
  type EnrolarRequest,
  type PendientesRequest,
} from '@pago/domain/schemas/call-autorizador';
import { formatRandomCode, RANDOM_CODE_LENGTH, randomCodeFrom, readRandomCode } from '@pago/domain/random-code';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import { randomBytes } from 'node:crypto';
import type { Db, DbOrTx, Tx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import * as devices from '../repositories/authoriser-repository';
import { moveAuthorization, type AuthorizationRow } from '../repositories/authorization-repository';
import { findMemberById, findMemberByRut } from '../repositories/member-repository';
import { devicePublicKey, enrolmentCodeHash, signatureMatches } from './device-signature';
import { refuse, type Refusal } from './refusal';

export type AuthoriserService = ReturnType<typeof createAuthoriserService>;

export interface AuthoriserOptions {
  /** How long an enrolment code the operator issues stays valid. */
  enrolmentCodeDays: number;
}

/** What a device is shown and signs for a push; null for a push written before the protocol (none is pending). */
export function solicitudOf(auth: AuthorizationRow): Solicitud | null {
  if (!auth.push || !auth.nonce) return null;
  const { descripcion, ...signed } = auth.push;
  return { solicitud: auth.id, idTransaccion: auth.idTransaccion, monto: auth.amount, ...signed, descripcion, expira: auth.expiresAt.toISOString(), nonce: auth.nonce };
}

/**
 * The mobile authoriser's side of factor 2 (docs/authoriser.md): a member's device enrols its public key with a
 * one-time code, asks for the payments waiting for it, and signs its decision over what it was shown. Every signed
 * message is rebuilt here from the server's own records; every refusal is audited.
 */
export function createAuthoriserService(db: Db, options: AuthoriserOptions) {
  const audit = (db: DbOrTx, kind: AuditEventKind, rut: string | null, requestId: string, detail: Record<string, unknown>) =>
    appendAudit(db, { kind, rutMasked: rut ? maskRut(rut) : null, requestId, detail });
  /** The RUT a device's or code's member is audited under. */
  const rutOf = async (db: DbOrTx, memberId: string) => (await findMemberById(db, memberId))?.rut ?? null;

  /** The device, when it is known and not revoked; a refusal (audited) otherwise. */
  async function activeDevice(id: string, requestId: string): Promise<{ ok: true; device: devices.DeviceRow } | Refusal<'521'>> {
    const device = await devices.findDevice(db, id);
    if (!device || device.revokedAt) {
      await audit(db, 'autorizador.rechazo', device ? await rutOf(db, device.memberId) : null, requestId, { motivo: device ? 'dispositivo revocado' : 'dispositivo desconocido', dispositivo: id });
      return refuse('521');
    }
    return { ok: true, device };
  }

  async function issueCodeWithin(tx: Tx, member: { id: string; rut: string }, issuedBy: string, requestId: string): Promise<{ codigo: string; validDays: number }> {
    const code = randomCodeFrom(randomBytes(RANDOM_CODE_LENGTH));
    await devices.insertEnrolmentCode(tx, { codeHash: enrolmentCodeHash(code), memberId: member.id, issuedBy, validDays: options.enrolmentCodeDays });
    await audit(tx, 'autorizador.codigo.emitido', member.rut, requestId, { emisor: issuedBy, dias: options.enrolmentCodeDays });
    return { codigo: formatRandomCode(code), validDays: options.enrolmentCodeDays };
  }

  return {
    /** A one-time enrolment code for the member's next device (operator, sandbox); null when there is no such member. */
    async issueEnrolmentCode(rutInput: string, issuedBy: string, requestId: string): Promise<{ codigo: string; validDays: number } | null> {
      const rut = canonicalRut(rutInput);
      const member = rut ? await findMemberByRut(db, rut) : null;
      if (!member) return null;
      return db.transaction((tx) => issueCodeWithin(tx, member, issuedBy, requestId));
    },

    /** A code for `member`, written in the caller's transaction (an approved four-eyes change mails it). */
    issueCodeWithin,

    /** Registers a device's key with a one-time code; the member's earlier device, if any, is revoked. */
    async enrol(request: EnrolarRequest, requestId: string): Promise<{ ok: true; dispositivo: string } | Refusal<'400' | '520'>> {
      const key = devicePublicKey(request.clavePublica);
      if (!key) return refuse('400');
      const code = readRandomCode(request.codigo);
      const signed = signatureMatches(key, enrolmentMessage(request), request.firma);
      return db.transaction(async (tx) => {
        // A bad signature does not spend the code: only its holder's device can.
        const memberId = code && signed ? await devices.spendEnrolmentCode(tx, enrolmentCodeHash(code)) : null;
        if (!memberId) {
          await audit(tx, 'autorizador.rechazo', null, requestId, { motivo: !signed ? 'firma de enrolamiento inválida' : 'código inválido' });
          return refuse('520');
        }
        const replaced = (await devices.revokeDevice(tx, { memberId }))?.id;
        const dispositivo = await devices.insertDevice(tx, { memberId, publicKey: request.clavePublica, name: request.nombre });
        await audit(tx, 'autorizador.enrolado', await rutOf(tx, memberId), requestId, { dispositivo, ...(replaced && { revocado: replaced }) });
        return { ok: true as const, dispositivo };
      });
    },

    /** The payments waiting for this device's member, for a request signed by the device within the clock's skew. */
    async pending(request: PendientesRequest, requestId: string): Promise<{ ok: true; solicitudes: Solicitud[] } | Refusal<'521' | '522'>> {
      const found = await activeDevice(request.dispositivo, requestId);
      if (!found.ok) return found;
      const { device } = found;
      const skew = Math.abs(Date.now() - Date.parse(request.fecha)) / 1000;
      const key = devicePublicKey(device.publicKey);
      if (!key || skew > DEVICE_CLOCK_SKEW_SECONDS || !signatureMatches(key, pendingMessage(request), request.firma)) {
        await audit(db, 'autorizador.rechazo', await rutOf(db, device.memberId), requestId, { motivo: skew > DEVICE_CLOCK_SKEW_SECONDS ? 'fecha fuera de plazo' : 'firma inválida', dispositivo: device.id });
        return refuse('522');
      }
      const pushes = await devices.pendingPushesOfMember(db, device.memberId);
      return { ok: true, solicitudes: pushes.map(solicitudOf).filter((s) => s !== null) };
    },

    /**
     * Approves or rejects one pending push of the device's member. The signature must cover this push's own
     * transaction, amount, account, products, payer, expiry and nonce: a signature over anything else, a push
     * already decided or expired, or a revoked device is refused and audited.
     */
    async decide(request: DecisionRequest, requestId: string): Promise<{ ok: true; decision: DecisionRequest['decision'] } | Refusal<'521' | '522' | '523'>> {
      const found = await activeDevice(request.dispositivo, requestId);
      if (!found.ok) return found;
      const { device } = found;
      return db.transaction(async (tx) => {
        const locked = await devices.lockPush(tx, request.solicitud);
        const auth = locked && locked.auth.memberId === device.memberId ? locked.auth : null;
        const solicitud = auth ? solicitudOf(auth) : null;
        const rut = auth?.push?.rutPagador ?? null;
        const detail = { dispositivo: device.id, solicitud: request.solicitud, ...(auth && { idTransaccion: auth.idTransaccion }) };
        if (!auth || !solicitud || auth.status !== 'pending' || locked!.expired) {
          const motivo = !solicitud ? 'solicitud de otro socio o desconocida' : auth!.status !== 'pending' ? 'solicitud ya decidida' : 'solicitud vencida';
          await audit(tx, 'autorizador.rechazo', rut, requestId, { motivo, ...detail });
          return refuse('523');
        }
        const key = devicePublicKey(device.publicKey);
        if (!key || !signatureMatches(key, decisionMessage({ decision: request.decision, ...solicitud }), request.firma)) {
          await audit(tx, 'autorizador.rechazo', rut, requestId, { motivo: 'firma inválida', ...detail });
          return refuse('522');
        }
        const status = request.decision === 'aprobar' ? 'approved' : 'rejected';
        // Under the push's lock and checked pending above: it moves.
        await moveAuthorization(tx, auth.id, 'pending', status, { deviceId: device.id, signature: request.firma });
        await audit(tx, status === 'approved' ? 'autorizador.aprobada' : 'autorizador.rechazada', rut, requestId, detail);
        return { ok: true as const, decision: request.decision };
      });
    },

    /** The operator's view of a member's devices; null when there is no such member. */
    async devicesOf(rutInput: string) {
      const rut = canonicalRut(rutInput);
      const member = rut ? await findMemberByRut(db, rut) : null;
      return member ? devices.devicesOfMember(db, member.id) : null;
    },

    /** Revokes a device at once: its pending and approved pushes pay nothing more (call 6 checks). */
    async revoke(id: string, requestId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const revoked = await devices.revokeDevice(tx, { id });
        if (!revoked) return false;
        await audit(tx, 'admin.autorizador.revocado', await rutOf(tx, revoked.memberId), requestId, { dispositivo: id });
        return true;
      });
    },
  };
}
