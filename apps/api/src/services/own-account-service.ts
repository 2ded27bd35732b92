import { AUTHORISATION_SECONDS } from '@pago/domain/call-cuenta-vista';
import {
  type AutenticaRequest,
  type AutorizarRequest,
  type PagarRequest,
  type ProductoPagado,
} from '@pago/domain/schemas/call-cuenta-vista';
import { kindOf } from '@pago/domain/families';
import { CHALLENGE_CELLS } from '@pago/domain/coordinate-card';
import type { RefusalCode } from '@pago/domain/errors';
import type { Family } from '@pago/domain/families';
import { toParameterMap, type ParameterMap } from '@pago/domain/parameters';
import { canonicalRut, joinRut, maskRut } from '@pago/domain/rut';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import * as authorizations from '../repositories/authorization-repository';
import * as members from '../repositories/member-repository';
import { listParameters } from '../repositories/parameters-repository';
import * as transactions from '../repositories/transaction-repository';
import { createPush, pushDeviceActive } from './authoriser-push';
import { countCoordinateFailure, MAX_CHALLENGES_PER_LOGIN, pickCells } from './coordinate-challenge';
import type { Mail } from './mail-service';
import {
  dummyCheck,
  globalBlockMail,
  MAX_PASSWORD_FAILURES,
  MIN_CLIENTS_FOR_GLOBAL_BLOCK,
  passwordLockMinutes,
  passwordMatches,
} from './password-check';
import { checkPayable, coreLinesOf, refuseIfPaidElsewhere, toProductosPagados, voucherOf } from './payment-service';
import type { CorePostings } from './core-postings';
import { insertOperation, ownAccountTriesOf, type CoreOperationRow } from '../repositories/core-operation-repository';
import { paymentWindowRefusal } from './payment-window';
import { refuse, type Refusal } from './refusal';
import { expectMoved } from '../repositories/moves';
import { touchSession, type SessionRow } from './session-service';

/** After the password, the second factor must be asked for within this time (else 440). */
const LOGIN_VALIDITY_MINUTES = 5;

/** `throttled`: this client failed for too many payers lately; answered 429 (514) before anything is judged. */
/** lastAttempt: the client's next wrong password for this payer blocks it there (LAST_PASSWORD_ATTEMPT_MESSAGE). */
export type AuthenticateResult =
  | { ok: true; numeroCuenta: string; factores: (1 | 2)[] }
  | Refusal
  | { ok: false; codigo: '482'; costlier: true }
  | { ok: false; codigo: '45203113'; lastAttempt: true };
export type AuthorizeResult = { ok: true; numeroCuenta: string; desafio?: string[]; vigencia: number } | Refusal<RefusalCode>;
export type PayResult = { ok: true; pagados: ProductoPagado[] } | Refusal<RefusalCode>;

export type OwnAccountService = ReturnType<typeof createOwnAccountService>;

/**
 * Calls 4, 5 and 6. The calls carry the session token, not a transaction id: they act on the session's current
 * transaction (the latest one call 3 created for this session), locked first in each call's database transaction.
 */
export interface OwnAccountOptions {
  /** How long a first block for wrong passwords lasts (PASSWORD_LOCK_MINUTES). */
  passwordLockMinutes: number;
  /** Each push is also posted to the app's backend (AUTHORISER_WEBHOOK_URL); else devices only poll. */
  notifyDevices: boolean;
  /** How long the background job leaves a debit to the call that wrote it before asking the core itself. */
  coreLeaseSeconds: number;
  /** Consecutive wrong passwords, from several clients, that block a RUT on every client (PASSWORD_BLOCK_FAILURES). */
  passwordBlockFailures: number;
  /** Other payers one client may fail for within an hour before it must bring costly captchas (RATE_LIMIT_LOGIN_FAILED_PAYERS). */
  failedPayersPerClient: number;
  /** The least work a costly captcha's solution shows (captcha-service.ts). */
  costlyCaptchaWork: number;
  /** The cooperative's name, for the block's e-mail. */
  cooperative: string;
  /** Sends the e-mail of a block on every client; its failure must not undo the block. */
  sendMail(mail: Mail): Promise<void>;
  /** How long an opened Webpay form holds its instalments (WEBPAY_SETTLE_AFTER_SECONDS), as at selection (443). */
  webpayOpenSeconds: number;
}

export function createOwnAccountService(db: Db, clock: Clock, postings: CorePostings, options: OwnAccountOptions) {
  /**
   * The call's live session, with the parameters it runs under. `rut` undefined: the call names no member RUT;
   * null: it named one that is not a valid RUT.
   */
  async function session(token: string, rut: string | null | undefined): Promise<(SessionRow & { params: Partial<ParameterMap> }) | null> {
    if (rut === null) return null;
    const params = toParameterMap(await listParameters(db));
    const live = await touchSession(db, token, rut ?? null, Number(params.sessionTimeOut ?? 5));
    return live ? { ...live, params } : null;
  }

  /** Spec codes when the operator closed payments, or the family's hours ended, since the selection: nothing moves. */
  const closedFor = (s: { params: Partial<ParameterMap> }, trx: { family: string }) => paymentWindowRefusal(s.params, trx.family as Family, clock());

  return {
    /** Whether a client gave wrong passwords for many payers within the hour: its captchas cost it more. */
    async isSpraying(client: string): Promise<boolean> {
      return (await members.otherPayersFailedByClient(db, client, '')) >= options.failedPayersPerClient;
    },

    /**
     * Call 4: the payer's password (argon2id), their account and factors. The password is verified before the
     * transaction, against the hash read without locks (decision 015: argon2id must not run while rows are locked);
     * under the payer's lock that verdict counts only if the row still has that hash and no block, else it is
     * verified again there. So parallel guesses are judged one at a time, in the order they take the payer's row.
     * A RUT with no online password is answered as a member's wrong password is, in the same time (a dummy hash
     * is verified) and with the same blocks: call 4 does not tell who is a member.
     * Wrong passwords count per payer and client (decision 032): the third blocks that payer on that client (the
     * spec's 45203016, which a member mistyping on their own device meets); the payer is blocked on every client only
     * after `passwordBlockFailures` in a row from at least MIN_CLIENTS_FOR_GLOBAL_BLOCK clients, and the member is
     * told by e-mail. A client that failed for `failedPayersPerClient` other payers within the hour must bring a costly
     * captcha for a new payer (else 482: the browser asks a new challenge, which is costly for it).
     * Blocks lift by themselves (passwordLockMinutes, doubling for each further block within a day, at most a day).
     */
    async authenticate(
      request: AutenticaRequest['autenticaConsultaFactoresRequest'],
      requestId: string,
      caller: { client: string; work: number; deviceHash: string },
    ): Promise<AuthenticateResult> {
      const { client } = caller;
      const s = await session(request.token, undefined);
      if (!s) return refuse('476');
      const payerRut = joinRut(request.autenticacion.rut, request.autenticacion.dv.toUpperCase());
      if (!payerRut) return refuse('45203113');
      const clave = request.autenticacion.clave;
      // Before anything is judged: a client spraying guesses over many RUTs must bring a costly captcha for a new RUT
      // (the challenge route gives it one), members or not alike; the members behind its address wait a little more.
      if (caller.work < options.costlyCaptchaWork && (await members.otherPayersFailedByClient(db, client, payerRut)) >= options.failedPayersPerClient) {
        const here = await members.clientGuard(db, payerRut, client);
        if (here.failures === 0 && !here.blocked) {
          await appendAudit(db, { kind: 'clave.cliente.captcha', rutMasked: maskRut(payerRut), requestId, detail: { cliente: client } });
          return { ok: false as const, codigo: '482' as const, costlier: true as const };
        }
      }
      const seen = await members.findMemberWithGuard(db, payerRut);
      const seenHash = seen?.passwordHash ?? null;
      // A block others' guesses caused does not hold on a browser this member signed in from before (decision 041).
      const trusted = seenHash ? await members.isTrustedDevice(db, caller.deviceHash, payerRut) : false;
      const holds = (guard: members.PasswordGuard) => guard.blocked && !(trusted && guard.blockedByGuesses);
      const blockedSeen = holds(seenHash ? seen!.guard : await members.unknownPayerGuard(db, payerRut)) || (await members.clientGuard(db, payerRut, client)).blocked;
      const early = blockedSeen ? null : { hash: seenHash, good: seenHash ? await passwordMatches(seenHash, clave) : await dummyCheck(clave) };

      let blockMail: Mail | null = null;
      const result = await db.transaction(async (tx) => {
        const trx = await transactions.lockLatestOfSession(tx, s.id);
        if (!trx) return refuse('515');
        if (trx.status !== 'pending') return refuse('442');
        const closed = closedFor(s, trx);
        if (closed) {
          // A refused login is the server's to record: the auditor finds it by RUT and transaction.
          await appendAudit(tx, { kind: 'clave.rechazada.horario', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion, codigo: closed } });
          return refuse(closed);
        }
        // Spec §4/§6: nobody deposits into another member's savings account.
        if (kindOf(trx.family) === 'savings' && payerRut !== s.rut) {
          await appendAudit(tx, { kind: 'deposito.tercero.rechazado', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion } });
          return refuse('451');
        }
        const elsewhere = await refuseIfPaidElsewhere(tx, trx, { call: 'cuentavista/autentica', webpayOpenSeconds: options.webpayOpenSeconds, requestId, rutMasked: maskRut(payerRut) });
        if (elsewhere) return elsewhere;
        const payer = await members.lockMemberByRut(tx, payerRut);
        const enrolled = payer?.passwordHash ? { ...payer, passwordHash: payer.passwordHash } : null;
        const guard = enrolled ? enrolled.guard : await members.lockUnknownPayerGuard(tx, payerRut);
        const here = await members.lockClientGuard(tx, payerRut, client);
        if (holds(guard) || here.blocked) {
          await appendAudit(tx, { kind: 'clave.rechazada.bloqueada', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion, alcance: here.blocked ? 'cliente' : 'todos' } });
          return refuse('45203016');
        }
        let good = false;
        if (enrolled) good = early && early.hash === enrolled.passwordHash ? early.good : await passwordMatches(enrolled.passwordHash, clave);
        else if (!early) await dummyCheck(clave);
        if (!good) {
          // Not blocked now, so a count already at the bound is that of a block that has lifted: it starts again.
          const failures = (here.failures >= MAX_PASSWORD_FAILURES ? 0 : here.failures) + 1;
          const locks = here.blockedWithinDay ? here.locks + 1 : 1;
          const lock = failures >= MAX_PASSWORD_FAILURES ? { minutes: passwordLockMinutes(locks, options.passwordLockMinutes), locks } : null;
          await members.recordClientWrongPassword(tx, payerRut, client, failures, lock);
          // The payer's own count runs across clients since the last right password or block on every client.
          const total = guard.failures + 1;
          const clients = total >= options.passwordBlockFailures ? await members.clientsFailingFor(tx, payerRut) : 0;
          const globalLocks = guard.blockedWithinDay ? guard.locks + 1 : 1;
          const global = clients >= MIN_CLIENTS_FOR_GLOBAL_BLOCK ? { minutes: passwordLockMinutes(globalLocks, options.passwordLockMinutes), locks: globalLocks } : null;
          await members.recordWrongPassword(tx, enrolled ? { memberId: enrolled.id } : { rut: payerRut }, global ? 0 : total, global);
          await appendAudit(tx, { kind: lock ? 'clave.bloqueada' : 'clave.incorrecta', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion, intentos: failures, ...(lock && { minutos: lock.minutes }), alcance: 'cliente' } });
          if (global) {
            await appendAudit(tx, { kind: 'clave.bloqueada', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion, intentos: total, minutos: global.minutes, clientes: clients, alcance: 'todos' } });
            if (enrolled?.email) blockMail = globalBlockMail(enrolled.email, options.cooperative, clients, global.minutes);
          }
          if (lock || global) return refuse('45203016');
          // Only this client's own count, the one its third failure blocks on: members and strangers, and RUTs with
          // no online password, are warned alike, and nothing of other clients' guesses shows.
          return failures === MAX_PASSWORD_FAILURES - 1 ? { ok: false as const, codigo: '45203113' as const, lastAttempt: true as const } : refuse('45203113');
        }
        const member = enrolled!;
        const { account, card, device } = await members.accountAndFactorsOf(tx, member.id);
        if (!account) return refuse('45203113');
        if (guard.blocked) {
          // Only a block by guesses gets here (holds() above): the member, on their own browser, lifts it.
          await members.liftGuessBlock(tx, member.id);
          await appendAudit(tx, { kind: 'clave.desbloqueada.dispositivo', rutMasked: maskRut(payerRut), requestId, detail: {} });
        } else if (member.passwordFailures !== 0) await members.clearPasswordFailures(tx, member.id);
        await members.trustDevice(tx, caller.deviceHash, payerRut);
        if (here.failures !== 0) await members.clearClientGuard(tx, payerRut, client);
        await appendAudit(tx, { kind: 'clave.correcta', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion } });
        await transactions.recordLogin(tx, trx.idTransaccion, payerRut, account.id);
        const factores: (1 | 2)[] = [];
        if (card && !card.blockedAt) factores.push(1);
        if (device) factores.push(2);
        return { ok: true as const, numeroCuenta: account.numeroCuenta, factores };
      });
      // Sent once the block is committed; a mail server that fails leaves the block, and the audit line, in place.
      if (blockMail) await options.sendMail(blockMail).catch(() => undefined);
      return result;
    },

    /**
     * Call 5: a coordinate challenge of three distinct cells (factor 1) or a push to the authoriser (factor 2). Within
     * a login the same challenge is answered again until it is answered or expires, at most MAX_CHALLENGES_PER_LOGIN
     * are issued, and one left unanswered (expired or superseded) counts as a wrong answer. Across logins, sessions
     * and transactions a payer is asked the same cells until they answer them right: the cells asked cannot be
     * re-rolled until only known ones come up.
     */
    async authorize(request: AutorizarRequest['autorizarPagoProductoCVRequest'], requestId: string): Promise<AuthorizeResult> {
      const s = await session(request.token, canonicalRut(request.rut));
      if (!s) return refuse('476');
      const payerRut = canonicalRut(request.rutPago);
      return db.transaction(async (tx) => {
        const trx = await transactions.lockLatestOfSession(tx, s.id);
        if (!trx) return refuse('515');
        if (trx.status !== 'pending') return refuse('442');
        const closed = closedFor(s, trx);
        if (closed) return refuse(closed);
        if (!trx.loginAt || !payerRut || trx.payerRut !== payerRut || !trx.accountId) return refuse('440');
        const elsewhere = await refuseIfPaidElsewhere(tx, trx, { call: 'cuentavista/autorizar', webpayOpenSeconds: options.webpayOpenSeconds, requestId, rutMasked: maskRut(payerRut) });
        if (elsewhere) return elsewhere;
        if (!(await transactions.loginIsFresh(tx, trx.idTransaccion, LOGIN_VALIDITY_MINUTES))) return refuse('440');
        const numeroCuenta = await members.accountNumberOf(tx, trx.accountId);
        const payer = await members.findMemberByRut(tx, payerRut);
        if (numeroCuenta === null || !payer) return refuse('440');

        const latest = await authorizations.lockLatestOfTransaction(tx, trx.idTransaccion);
        const open = latest?.auth.status === 'pending' ? latest : null;
        const sameLogin = open !== null && open.auth.createdAt >= trx.loginAt;
        if (request.factor === 1 && open?.auth.factor === 1 && !open.expired && sameLogin) {
          return { ok: true as const, numeroCuenta, desafio: open.auth.cells ?? [], vigencia: open.secondsLeft };
        }
        // A new request supersedes any earlier one of this transaction, also when it is refused.
        if (open) {
          await authorizations.moveAuthorization(tx, open.auth.id, 'pending', 'expired');
          if (open.auth.factor === 1) await countCoordinateFailure(tx, open.auth.memberId, payerRut, requestId, 'sin respuesta', trx.idTransaccion);
        }
        if (request.factor === 1) {
          // Read after the unanswered challenge above was counted: that may have blocked it.
          const card = await members.lockCoordinateCard(tx, payer.id);
          if (!card) return refuse('5203002');
          if (card.blockedAt) return refuse('45203017');
          if ((await authorizations.countChallengesSince(tx, trx.idTransaccion, trx.loginAt)) >= MAX_CHALLENGES_PER_LOGIN) return refuse('440');
          // Under the card's lock, so two sessions of one payer cannot each pick new cells.
          const cells = (await authorizations.cellsStillAskedOf(tx, payer.id)) ?? pickCells(CHALLENGE_CELLS);
          await authorizations.insertAuthorization(tx, { idTransaccion: trx.idTransaccion, memberId: payer.id, factor: 1, cells, amount: trx.total, validSeconds: AUTHORISATION_SECONDS });
          return { ok: true as const, numeroCuenta, desafio: cells, vigencia: AUTHORISATION_SECONDS };
        }
        const push = await createPush(tx, { trx, payerId: payer.id, payerRut, numeroCuenta, notifyDevices: options.notifyDevices });
        if (!push.ok) return push;
        return { ok: true as const, numeroCuenta, vigencia: AUTHORISATION_SECONDS };
      });
    },

    /**
     * Call 6, exactly once. Under the transaction row's lock a paid transaction answers its voucher again, and one
     * whose debit is at the core asks the core again with the same key; otherwise the factor is checked, the items
     * are checked still owed, and the debit is written as the transaction's next try (`posting`). The core is then
     * asked with no lock held (core-postings.ts): the payment is applied, with its voucher, only once the core
     * booked it; insufficient funds is the core's answer.
     */
    async pay(request: PagarRequest['pagarProductoCVRequest'], requestId: string): Promise<PayResult> {
      const s = await session(request.token, canonicalRut(request.rutTitular));
      if (!s) return refuse('476');
      const payerRut = canonicalRut(request.rutPago);
      const factor = request.factor ?? 1;
      // The debit to ask the core about: written now, or written by an earlier call 6 still without an answer.
      const next = await db.transaction(async (tx): Promise<{ debit: CoreOperationRow } | PayResult> => {
          const trx = await transactions.lockLatestOfSession(tx, s.id);
          if (!trx) return refuse('515');
          if (trx.status === 'paid') {
            const pagos = await voucherOf(tx, trx.idTransaccion);
            return pagos ? { ok: true as const, pagados: toProductosPagados(pagos) } : refuse('500');
          }
          if (trx.status === 'posting') {
            const tries = await ownAccountTriesOf(tx, trx.idTransaccion);
            const last = tries.at(-1);
            return last ? { debit: last } : refuse('503');
          }
          if (trx.status !== 'pending') return refuse('442');
          const closed = closedFor(s, trx);
          if (closed) return refuse(closed);
          if (!trx.loginAt || !payerRut || trx.payerRut !== payerRut || !trx.accountId) return refuse('440');
          const accountNumber = await members.accountNumberOf(tx, trx.accountId);
          if (accountNumber === null || accountNumber !== request.numeroCuenta) return refuse('440');
          // Before the factor is spent, and under the instalments' locks a Webpay form opening elsewhere takes too.
          const elsewhere = await refuseIfPaidElsewhere(tx, trx, { call: 'cuentavista/pagar', webpayOpenSeconds: options.webpayOpenSeconds, requestId, rutMasked: maskRut(payerRut), locked: true });
          if (elsewhere) return elsewhere;

          const latest = await authorizations.lockLatestOfTransaction(tx, trx.idTransaccion);
          if (!latest || latest.auth.factor !== factor) return refuse('485');
          const { auth, expired } = latest;
          // This factor was spent on a debit the core refused or failed: a repeat of the call answers that again.
          if (auth.status === 'used') {
            const last = (await ownAccountTriesOf(tx, trx.idTransaccion)).at(-1);
            if (last?.status === 'refused' && last.createdAt >= auth.createdAt) return refuse(last.lastError === 'insufficient_funds' ? '47203' : '502');
            if (last?.status === 'failed' && last.createdAt >= auth.createdAt) return refuse('502');
          }
          if (auth.status === 'pending' && expired) {
            await authorizations.moveAuthorization(tx, auth.id, 'pending', 'expired');
            if (factor === 1 && (await countCoordinateFailure(tx, auth.memberId, payerRut, requestId, 'vencido', trx.idTransaccion))) return refuse('5203017');
            return refuse('999');
          }
          if (factor === 1) {
            if (auth.status !== 'pending') return refuse('485');
            const card = await members.lockCoordinateCard(tx, auth.memberId);
            if (!card) return refuse('5203002');
            if (card.blockedAt) return refuse('5203017');
            const answers = request.desafio?.item.map((i) => i.valor) ?? [];
            const expected = (auth.cells ?? []).map((cell) => card.cells[cell]);
            const matches = answers.length === CHALLENGE_CELLS && expected.every((value, i) => value === answers[i]);
            // One answer per challenge: a wrong one spends it, and the member asks for new cells.
            await authorizations.moveAuthorization(tx, auth.id, 'pending', matches ? 'used' : 'expired');
            if (!matches) {
              const blocked = await countCoordinateFailure(tx, auth.memberId, payerRut, requestId, 'incorrecto', trx.idTransaccion);
              return refuse(blocked ? '5203017' : '5203007');
            }
            if (card.failures !== 0) await members.setCardFailures(tx, card.id, 0, false);
          } else {
            // A revoked device approves nothing, before or after its decision: the member enrols again ('7').
            if (!(await pushDeviceActive(tx, auth))) {
              await authorizations.moveAuthorization(tx, auth.id, ['pending', 'approved'], 'expired');
              return refuse('7');
            }
            // Still waiting for the payer's phone: the browser polls every second and ignores 25.
            if (auth.status === 'pending') return refuse('25');
            if (auth.status === 'rejected') return refuse('8');
            if (auth.status !== 'approved' || auth.amount !== trx.total) return refuse('485');
            await authorizations.moveAuthorization(tx, auth.id, 'approved', 'used');
          }

          const items = await transactions.itemsOf(tx, trx.idTransaccion);
          const payable = await checkPayable(tx, trx, items);
          if (!payable.ok) {
            // Its instalments were paid by another transaction: this one can never be paid, and closes with the refusal.
            if (payable.codigo === '442') await transactions.moveTransaction(tx, trx.idTransaccion, 'pending', 'rejected');
            return payable;
          }
          const { productRows } = payable;
          const tries = await ownAccountTriesOf(tx, trx.idTransaccion);
          const lines = coreLinesOf(productRows, items);
          const key = `${trx.idTransaccion}-${tries.length + 1}`;
          // The request asks the core itself; the background job waits a lease before it asks too.
          const op = await insertOperation(tx, { key, idTransaccion: trx.idTransaccion, kind: 'cuenta_vista', amount: trx.total, lines, sourceAccount: accountNumber, firstTryAfterSeconds: options.coreLeaseSeconds });
          expectMoved(await transactions.moveTransaction(tx, trx.idTransaccion, 'pending', 'posting'), 'transaction to posting');
          await appendAudit(tx, { kind: 'pago.cuentavista.enviado', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion, total: trx.total, clave: key } });
          return { debit: op };
      });
      if ('ok' in next) return next;
      const outcome = await postings.payOwnAccount(next.debit, requestId);
      return outcome.ok ? { ok: true as const, pagados: toProductosPagados(outcome.pagos) } : refuse(outcome.codigo);
    },
  };
}
