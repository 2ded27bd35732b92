import type { AuditEventKind } from '@pago/domain/state-words';
import { hasName, TEXT_NAMES } from '@pago/domain/parameters';
import type { Db, Tx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { checkRepost, insertOperation } from '../repositories/core-operation-repository';
import { askWebpay, markForRefund, REFUND_REFUSALS, REFUND_UNANSWERED, type WebpayHolding } from '../services/card-manual-refund';
import type { RefundDone } from '../services/card-settlement';
import { REVERSAL_REFUSALS, startReversal, type PaymentReversals, type ReversalStep } from '../services/payment-reversal';
import { applyParameter, checkParameter, type ParametersService } from '../services/parameters-service';
import type { WebpayCall, WebpayResult } from '../services/webpay-client';
import { actorLabel, type Actor } from './access';
import { maskEmail } from '@pago/domain/call-consultar-pago';
import { enqueueMail } from '../repositories/mail-queue-repository';
import { textMail } from '../services/mail-service';
import { findMemberById } from '../repositories/member-repository';
import { approveMachineToken, endSessionsOf, revokeMachineToken, setAssignedRoles, tokensOf } from '../repositories/operator-repository';
import { CHANGE_PERMISSION, isPermission, isRole, permissionsOf, type ChangeKind } from './roles';
import { closeRefusal, CLOSE_REFUSALS, compareDay } from '@pago/domain/day-close';
import { closeOf, holdDayPayments, moveDayClose, paymentsOfDay } from '../repositories/day-close-repository';
import { closePayments, signedTotals, type CoreSide, type DayCloseService } from '../services/day-close-service';
import { findChange, insertChange, lapseExpired, listChanges, lockChange, moveOperatorChange, pendingChangeOf, recordChangeResult, type ChangeRow } from '../repositories/operator-change-repository';

export type { ChangeRow } from '../repositories/operator-change-repository';
export { CHANGE_PERMISSION, type ChangeKind } from '@pago/domain/operator-roles';

/** What an approved enrolment code needs: writing the code, and the cooperative's name for the member's e-mail. */
export interface EnrolmentCodes {
  issueCodeWithin(tx: Tx, member: { id: string; rut: string }, issuedBy: string, requestId: string): Promise<{ codigo: string; validDays: number }>;
  cooperative: string;
}

/** The e-mail that carries an enrolment code to the member: nobody at the cooperative sees the code. */
export function enrolmentCodeMail(to: string, cooperative: string, codigo: string, days: number) {
  return textMail(to, `${cooperative}: tu código del autorizador móvil`, [
    `${cooperative} - Pago Online`,
    `Tu código para enrolar tu teléfono en el autorizador móvil es: ${codigo}`,
    `Es válido por ${days} días y sirve una sola vez. Escríbelo en la app de ${cooperative}.`,
    'Si no lo pediste, no lo uses y contáctanos: enrolar otro teléfono reemplaza al tuyo.',
  ]);
}

/** What a manual refund needs of the card payments: Webpay's status, and the refund path (card-settlement.ts). */
export interface CardRefunds {
  webpayStatus(token: string): Promise<WebpayCall<WebpayResult>>;
  refundDue(token: string, requestId: string | null): Promise<RefundDone | { outcome: 'not_due' }>;
}

/** What an approval's follow-up found after its commit: added to the change's result (what it records already stands). */
interface FollowUp {
  result: Record<string, unknown>;
  /** What the approval set off was refused: the change fails, and the trail says why. */
  refused?: { kind: AuditEventKind; detail: Record<string, unknown> };
}

/**
 * A reversal's progress after its approval, as staff read it: given back, under way (the scheduler carries on), or
 * refused by the core or by Webpay, with the reason: the change fails, and what was done is said.
 */
function reversalFollowUp(step: ReversalStep, names: Record<string, unknown>): FollowUp {
  const result = { anulacion: step.texto, paso: step.paso, ...('motivo' in step && step.motivo ? { motivo: step.motivo } : {}) };
  if (step.paso === 'core_rechazo' || step.paso === 'webpay_rechazo') {
    return { result, refused: { kind: 'pago.anulacion.rechazada', detail: { ...names, paso: step.paso, motivo: 'motivo' in step ? step.motivo : '' } } };
  }
  return { result };
}

/**
 * Parameters that stop payments or move money need a second person: the switches (Mantencion, CierreDiario, each
 * family's, Webpay's, debit/credit's), the commerce codes, the grace days and the card deposit ceiling. Texts and
 * the session time-out apply at once.
 */
export function needsSecondPerson(nombre: string): boolean {
  return nombre !== 'sessionTimeOut' && !hasName(TEXT_NAMES, nombre);
}

export const REPOST_REFUSALS = {
  not_found: 'Operación del core no encontrada',
  not_refused: 'Solo se reenvía un abono de tarjeta que el core rechazó',
  reposted: 'El abono ya fue reenviado',
} as const;

export type ProposeResult = { ok: true; change: ChangeRow } | { ok: false; reason: 'pending'; change: ChangeRow | null };

export type DecideResult =
  | { ok: true; change: ChangeRow }
  | { ok: false; reason: 'not_found' | 'decided' | 'expired' | 'own' | 'own_roles' | 'machine' | 'forbidden' | 'apply_failed' | 'unavailable'; message?: string };

type Applied = { ok: true; result: Record<string, unknown>; after?: () => Promise<FollowUp | void> } | { ok: false; message: string };

/**
 * The maker-checker flow (decisions 034, 036): propose, then approve or reject by another operator before it lapses.
 * What an approval needs from the network (Webpay's status for a refund) is asked before its transaction opens, and
 * what it sets off (the refund, reaching the replicas) runs after it commits.
 */
export function createFourEyes(
  db: Db,
  parameters: ParametersService,
  card: CardRefunds,
  codes: EnrolmentCodes,
  options: { hours: number },
  { closes, reversals }: { closes: DayCloseService; reversals: Pick<PaymentReversals, 'advance'> },
) {
  /** Lapses what waited too long (the scheduler's `operator-change-lapse`; a decision checks the time itself). */
  async function lapse(): Promise<void> {
    for (const change of await lapseExpired(db)) {
      await appendAudit(db, { kind: 'cambio.vencido', detail: { cambio: change.id, tipo: change.kind, objetivo: change.target, operador: change.makerName } });
    }
  }

  async function apply(tx: Tx, change: ChangeRow, checker: string, requestId: string, holding: WebpayHolding | null, coreSide: CoreSide | null): Promise<Applied> {
    if (change.kind === 'parametro') {
      const valor = String(change.payload.valor);
      // Checked again: the rules of a value may have changed with a release since it was proposed.
      const checked = checkParameter(change.target, valor);
      if (!checked.ok) return { ok: false, message: checked.reason === 'invalid' ? checked.message : 'Parámetro desconocido' };
      const motivo: Record<string, string> = typeof change.payload.motivo === 'string' ? { motivo: change.payload.motivo } : {};
      const applied = await applyParameter(tx, change.target, valor, requestId, { operador: change.makerName, aprobadoPor: checker, cambio: change.id, ...motivo });
      if (!applied.ok) return { ok: false, message: applied.reason === 'invalid' ? applied.message : 'Parámetro desconocido' };
      return { ok: true, result: { anterior: applied.anterior, valor }, after: () => parameters.reachReplicas() };
    }
    if (change.kind === 'reposteo_core') {
      const check = await checkRepost(tx, change.target);
      if (!check.ok) return { ok: false, message: REPOST_REFUSALS[check.reason] };
      const { op, nextKey } = check;
      // Sent by the postings job within CORE_POST_INTERVAL_SECONDS, under its own key.
      await insertOperation(tx, { key: nextKey, idTransaccion: op.idTransaccion, kind: 'abono_webpay', amount: op.amount, lines: op.lines });
      await appendAudit(tx, { kind: 'core.abono.reenviado', requestId, detail: { idTransaccion: op.idTransaccion, clave: op.key, nuevaClave: nextKey, monto: op.amount, operador: change.makerName, aprobadoPor: checker, cambio: change.id } });
      return { ok: true, result: { clave: nextKey } };
    }
    if (change.kind === 'devolucion_webpay') {
      if (!holding?.ok) return { ok: false, message: REFUND_REFUSALS.no_status };
      const marked = await markForRefund(tx, change.target, holding, { operador: change.makerName, aprobadoPor: checker, cambio: change.id, motivo: change.payload.motivo }, requestId);
      if (!marked.ok) return { ok: false, message: REFUND_REFUSALS[marked.reason] };
      // What Webpay does is recorded on this change with the attempt's move (recordManualRefundOutcome), now or when
      // the reconciliation learns it; a silence is said until then.
      return {
        ok: true,
        result: marked.result,
        after: async () => ((await card.refundDue(marked.token, requestId)).outcome === 'unanswered' ? { result: { devolucion: REFUND_UNANSWERED } } : undefined),
      };
    }
    if (change.kind === 'cierre_dia') {
      if (!coreSide) return { ok: false, message: 'El core no respondió: el cierre se aprueba cuando responda' };
      const fecha = change.target;
      // Checked again on what the day holds now (ours and Webpay's under the payments' locks, the core's just read):
      // a difference that appeared since the proposal stops the close.
      await holdDayPayments(tx, fecha);
      const comparison = compareDay(closePayments(await paymentsOfDay(tx, fecha), coreSide), coreSide.unknown);
      const refusal = closeRefusal(fecha, closes.today(), comparison);
      if (refusal) return { ok: false, message: CLOSE_REFUSALS[refusal] };
      const existing = await closeOf(tx, fecha);
      if (existing?.status === 'cerrado') return { ok: false, message: 'El día ya está cerrado' };
      const signed = { proposedBy: change.makerName, closedBy: checker, changeId: change.id, totals: signedTotals(comparison) };
      const [closed] = await moveDayClose(tx, fecha, existing ? 'reabierto' : null, 'cerrado', signed);
      if (!closed) return { ok: false, message: 'El día cambió mientras se aprobaba: inténtalo de nuevo' };
      await appendAudit(tx, { kind: 'cierre.firmado', requestId, detail: { fecha, lineas: comparison.lineas.length, operador: change.makerName, aprobadoPor: checker, cambio: change.id, motivo: change.payload.motivo } });
      return { ok: true, result: { cierre: 'Cerrado', lineas: comparison.lineas.length } };
    }
    if (change.kind === 'anulacion_pago') {
      const started = await startReversal(tx, change.target, { operador: change.makerName, aprobadoPor: checker, cambio: change.id, motivo: change.payload.motivo }, requestId);
      if (!started.ok) return { ok: false, message: REVERSAL_REFUSALS[started.reason] };
      return { ok: true, result: started.result, after: async () => reversalFollowUp(await reversals.advance(change.target, requestId), { idTransaccion: change.target, operador: change.makerName, aprobadoPor: checker, cambio: change.id }) };
    }
    if (change.kind === 'token') {
      const token = await approveMachineToken(tx, change.target, checker);
      if (!token) return { ok: false, message: 'El token fue revocado o ya no espera aprobación' };
      await appendAudit(tx, { kind: 'token.aprobado', requestId, detail: { token: token.name, alcances: token.scopes, operador: change.makerName, aprobadoPor: checker, cambio: change.id } });
      return { ok: true, result: { token: token.name } };
    }
    if (change.kind === 'codigo_autorizador') {
      const member = await findMemberById(tx, change.target);
      if (!member) return { ok: false, message: 'Socio no encontrado' };
      if (!member.email) return { ok: false, message: 'El socio no tiene un correo registrado al que enviar el código' };
      const issued = await codes.issueCodeWithin(tx, member, `${change.makerName}, aprobado por ${checker}`, requestId);
      // Sent to the member only, with the approval's transaction: the code is on no screen and in no log.
      await enqueueMail(tx, enrolmentCodeMail(member.email, codes.cooperative, issued.codigo, issued.validDays));
      return { ok: true, result: { enviadoA: maskEmail(member.email), vigenciaDias: issued.validDays } };
    }
    if (change.kind === 'roles_operador') {
      const roles = (change.payload.roles as string[]).filter(isRole);
      await setAssignedRoles(tx, change.target, roles, `${change.makerName}, aprobado por ${checker}`);
      // The new roles hold from now: open sessions end, and the subject's tokens lose what the roles no longer give.
      const sesiones = await endSessionsOf(tx, change.target);
      const allowed = permissionsOf(roles);
      const revoked: string[] = [];
      for (const token of await tokensOf(tx, change.target)) {
        if (token.scopes.some((scope) => !isPermission(scope) || !allowed.has(scope))) {
          await revokeMachineToken(tx, token.id, checker);
          revoked.push(token.name);
        }
      }
      await appendAudit(tx, {
        kind: 'operador.roles',
        requestId,
        detail: { sujeto: change.target, roles, anteriores: change.payload.anteriores, sesionesTerminadas: sesiones, tokensRevocados: revoked, operador: change.makerName, aprobadoPor: checker, cambio: change.id },
      });
      return { ok: true, result: { roles, sesionesTerminadas: sesiones, tokensRevocados: revoked } };
    }
    return { ok: false, message: 'Tipo de cambio no soportado' };
  }

  async function proposeWithin(tx: Tx, actor: Actor, kind: ChangeKind, target: string, payload: Record<string, unknown>, requestId: string): Promise<ProposeResult> {
    const maker = actorLabel(actor);
    const change = await insertChange(tx, { kind, target, payload, makerSubject: actor.persona, makerName: maker }, options.hours);
    if (!change) return { ok: false, reason: 'pending', change: await pendingChangeOf(tx, kind, target) };
    await appendAudit(tx, { kind: 'cambio.propuesto', requestId, detail: { cambio: change.id, tipo: kind, objetivo: target, ...payload, operador: maker } });
    return { ok: true, change };
  }

  return {
    lapse,

    async propose(actor: Actor, kind: ChangeKind, target: string, payload: Record<string, unknown>, requestId: string): Promise<ProposeResult> {
      // One of its kind and target that lapsed makes room for this one.
      await lapse();
      return db.transaction((tx) => proposeWithin(tx, actor, kind, target, payload, requestId));
    },

    /** Proposes inside the caller's transaction, with what the change is about (a token asked for, say). */
    proposeWithin,

    async decide(actor: Actor, id: string, approve: boolean, requestId: string): Promise<DecideResult> {
      // A machine never checks: four eyes are two people.
      if (actor.kind !== 'operador') return { ok: false, reason: 'machine' };
      const person = actor.persona;
      const checker = actorLabel(actor);
      let holding: WebpayHolding | null = null;
      let coreSide: CoreSide | null = null;
      if (approve) {
        // A refund asks Webpay what it still holds first, with no transaction open; the checks are made again below.
        const peek = await findChange(db, id);
        if (peek?.kind === 'devolucion_webpay' && peek.status === 'pendiente' && peek.makerSubject !== person && actor.permisos.has('webpay.devolver')) {
          const asked = await askWebpay(db, peek.target, card.webpayStatus);
          if (!asked.ok) return asked.reason === 'unavailable' ? { ok: false, reason: 'unavailable' } : { ok: false, reason: 'apply_failed', message: REFUND_REFUSALS[asked.reason] };
          holding = asked;
        }
        // A close reads the core's books first, with no transaction open; the day is compared again below.
        if (peek?.kind === 'cierre_dia' && peek.status === 'pendiente' && peek.makerSubject !== person && actor.permisos.has('cierre.firmar')) {
          const compared = await closes.compare(peek.target);
          if ('unavailable' in compared) return { ok: false, reason: 'unavailable' };
          coreSide = compared.core;
        }
      }
      const then: { after?: () => Promise<FollowUp | void> } = {};
      const outcome = await db.transaction(async (tx): Promise<DecideResult> => {
        const locked = await lockChange(tx, id);
        if (!locked) return { ok: false, reason: 'not_found' };
        const { change } = locked;
        if (!actor.permisos.has(CHANGE_PERMISSION[change.kind as ChangeKind])) return { ok: false, reason: 'forbidden' };
        // Past its time is lapsed, whether or not the scheduler has moved it yet.
        if (change.status === 'vencido' || (change.status === 'pendiente' && locked.lapsed)) return { ok: false, reason: 'expired' };
        if (change.status !== 'pendiente') return { ok: false, reason: 'decided' };
        // The maker is the person behind the proposal, their machine tokens included.
        if (change.makerSubject === person) return { ok: false, reason: 'own' };
        if (change.kind === 'roles_operador' && change.target === person) return { ok: false, reason: 'own_roles' };
        if (!approve) {
          const [rejected] = await moveOperatorChange(tx, id, 'pendiente', 'rechazado', { checkerSubject: person, checkerName: checker });
          await appendAudit(tx, { kind: 'cambio.rechazado', requestId, detail: { cambio: id, tipo: change.kind, objetivo: change.target, ...change.payload, operador: change.makerName, rechazadoPor: checker } });
          return { ok: true, change: rejected! };
        }
        const applied = await apply(tx, change, checker, requestId, holding, coreSide);
        if (!applied.ok) return { ok: false, reason: 'apply_failed', message: applied.message };
        then.after = applied.after;
        const [approved] = await moveOperatorChange(tx, id, 'pendiente', 'aprobado', { checkerSubject: person, checkerName: checker, result: applied.result });
        await appendAudit(tx, { kind: 'cambio.aprobado', requestId, detail: { cambio: id, tipo: change.kind, objetivo: change.target, ...change.payload, operador: change.makerName, aprobadoPor: checker } });
        return { ok: true, change: approved! };
      });
      if (!outcome.ok || !then.after) return outcome;
      const follow = await then.after();
      // Read again: what the approval set off may have moved the change meanwhile (a refund Webpay refused fails it).
      const recorded = await db.transaction(async (tx) => {
        const current = (await lockChange(tx, id))?.change;
        if (!follow || !current) return current;
        const result = { ...follow.result, ...(current.result ?? {}) };
        if (follow.refused && current.status === 'aprobado') {
          const [failed] = await moveOperatorChange(tx, id, 'aprobado', 'fallido', { result });
          if (failed) await appendAudit(tx, { kind: follow.refused.kind, requestId, detail: follow.refused.detail });
          return failed ?? current;
        }
        const [updated] = await recordChangeResult(tx, id, result);
        return updated ?? current;
      });
      return { ok: true, change: recorded ?? outcome.change };
    },

    /** Pending changes first (oldest first), then the latest decided ones. */
    list(limit = 100): Promise<ChangeRow[]> {
      return listChanges(db, limit);
    },
  };
}

export type FourEyes = ReturnType<typeof createFourEyes>;
