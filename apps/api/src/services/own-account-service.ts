import { verify } from '@node-rs/argon2';
import type { Pago } from '@pago/domain/call-consultar-pago';
import { AUTHORISATION_SECONDS, type AutenticaRequest, type AutorizarRequest, type PagarRequest, type ProductoPagado } from '@pago/domain/call-cuenta-vista';
import { toParameterMap } from '@pago/domain/parameters';
import { canonicalRut, joinRut, maskRut } from '@pago/domain/rut';
import { and, desc, eq, sql } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { Clock } from '../clock';
import { inTransaction, type Db, type DbOrTx } from '../db/client';
import { inOneStatement } from '../db/one-statement';
import { preparedPerHandle } from '../db/prepared';
import { accounts, authoriserEnrolments, authorizations, coordinateCards, members, transactions } from '../db/schema';
import { COORDINATE_COLUMNS, COORDINATE_ROWS } from '../db/demo-data';
import { appendAudit, auditInsert } from '../repositories/audit-repository';
import { listParameters } from '../repositories/parameters-repository';
import { applyPayment, maskAccount, PaymentRefused, voucherOf } from './payment-service';
import { touchSession, type SessionRow } from './session-service';

/** Consecutive wrong passwords that block the online password (45203016). */
export const MAX_PASSWORD_FAILURES = 3;
/** Consecutive wrong coordinate answers that block the card (5203017). */
export const MAX_COORDINATE_FAILURES = 3;
/** After the password, the second factor must be asked for within this time (else 440). */
const LOGIN_VALIDITY_MINUTES = 5;

/**
 * The payer's two factors, left-joined by calls 4 and 5 on the member's id. Each part carries its id: drizzle reads a
 * left-joined part whose columns are all null as absent, and a card that is not blocked has a null `blockedAt`.
 */
const FACTOR_COLUMNS = {
  card: { id: coordinateCards.id, blockedAt: coordinateCards.blockedAt },
  enrolment: { id: authoriserEnrolments.id, blockedAt: authoriserEnrolments.blockedAt },
};

/*
 * The statements of calls 4–6 that run on every payment, prepared once per pooled connection (db/prepared.ts, decision
 * 014): they run inside the calls' transactions (inTransaction), where Drizzle used to build them on every call and
 * PostgreSQL to plan them every time.
 */

/**
 * The session's latest transaction as calls 4–6 read it under its lock: with whether its login is recent enough for a
 * second factor, and the number of the account its login chose (call 5 answers it, call 6 compares it with the one
 * the browser sends; the account itself is locked later, in the payment's lock order, payment-service.ts).
 */
const LOCKED_TRANSACTION_COLUMNS = {
  trx: transactions,
  loginFresh: sql<boolean>`coalesce(${transactions.loginAt} > now() - make_interval(mins => ${LOGIN_VALIDITY_MINUTES}), false)`,
  // Qualified by hand: Drizzle leaves the columns of a one-table select unqualified, and inside the subquery an
  // unqualified "id" would be the account's by luck of the names.
  accountNumber: sql<string | null>`(select "a"."numero_cuenta" from ${accounts} "a" where "a"."id" = "transactions"."account_id")`,
};

const currentTransaction = preparedPerHandle('current_transaction', (db) =>
  db
    .select(LOCKED_TRANSACTION_COLUMNS)
    .from(transactions)
    .where(eq(transactions.sessionId, sql.placeholder('sessionId')))
    .orderBy(desc(transactions.createdAt))
    .limit(1)
    .for('update'),
);

/**
 * Call 5's read in one round trip: the locked transaction as above, with the payer its login named (the row's own
 * payer_rut, which call 5 compares with the request's before using any of this) and the payer's factors, unlocked
 * as before (only the transaction's row is locked).
 */
const currentTransactionWithPayerFactors = preparedPerHandle('challenge_transaction', (db) =>
  db
    .select({ ...LOCKED_TRANSACTION_COLUMNS, payerId: members.id, ...FACTOR_COLUMNS })
    .from(transactions)
    .leftJoin(members, eq(members.rut, transactions.payerRut))
    .leftJoin(coordinateCards, eq(coordinateCards.memberId, members.id))
    .leftJoin(authoriserEnrolments, eq(authoriserEnrolments.memberId, members.id))
    .where(eq(transactions.sessionId, sql.placeholder('sessionId')))
    .orderBy(desc(transactions.createdAt))
    .limit(1)
    .for('update', { of: transactions }),
);

/**
 * Call 4's payer. Only the failure count changes: 'no key update' lets other transactions' foreign-key checks on the
 * member (a payment updating the member's products, a selection, a challenge) through instead of deadlocking.
 */
const payerForLogin = preparedPerHandle('login_payer', (db) =>
  db.select().from(members).where(eq(members.rut, sql.placeholder('rut'))).for('no key update'),
);

/**
 * Call 4, before its transaction: the payer's password hash and state, account and factors in one round trip,
 * without locks (a member has at most one card and one enrolment). The password is checked against this hash with
 * no transaction open; the locked row then decides whether that check counts. When it does not, the same read runs
 * again under the locks.
 */
const payerAccountAndFactorsForLogin = preparedPerHandle('login_payer_account_factors', (db) =>
  db
    .select({
      payerId: members.id,
      passwordHash: members.passwordHash,
      passwordBlockedAt: members.passwordBlockedAt,
      account: { id: accounts.id, numeroCuenta: accounts.numeroCuenta },
      ...FACTOR_COLUMNS,
    })
    .from(members)
    .leftJoin(accounts, eq(accounts.memberId, members.id))
    .leftJoin(coordinateCards, eq(coordinateCards.memberId, members.id))
    .leftJoin(authoriserEnrolments, eq(authoriserEnrolments.memberId, members.id))
    .where(eq(members.rut, sql.placeholder('rut')))
    .limit(1),
);

/** Call 6: the transaction's latest challenge or push, locked. */
const latestAuthorization = preparedPerHandle('pay_latest_authorization', (db) =>
  db
    .select({ auth: authorizations, expired: sql<boolean>`${authorizations.expiresAt} < now()` })
    .from(authorizations)
    .where(eq(authorizations.idTransaccion, sql.placeholder('idTransaccion')))
    .orderBy(desc(authorizations.createdAt))
    .limit(1)
    .for('update'),
);

const cardOfMember = preparedPerHandle('pay_card', (db) =>
  db.select().from(coordinateCards).where(eq(coordinateCards.memberId, sql.placeholder('memberId'))).for('update'),
);

/** Call 6 decides a challenge or push: 'used' when it pays, 'expired' when it is spent without paying. */
const decideAuthorization = preparedPerHandle('pay_decide_authorization', (db) =>
  db
    .update(authorizations)
    .set({ status: sql`${sql.placeholder('status')}`, decidedAt: sql`now()` })
    .where(eq(authorizations.id, sql.placeholder('id'))),
);

type Refusal = { ok: false; codigo: string };
const refuse = (codigo: string): Refusal => ({ ok: false, codigo });

export type AuthenticateResult = { ok: true; numeroCuenta: string; factores: (1 | 2)[] } | Refusal;
export type AuthorizeResult = { ok: true; numeroCuenta: string; desafio?: string[]; vigencia: number } | Refusal;
export type PayResult = { ok: true; pagados: ProductoPagado[] } | Refusal;

export function toProductosPagados(pagos: Pago[]): ProductoPagado[] {
  return pagos.map((p) => {
    const detalles = Array.isArray(p.detallePago) ? p.detallePago : [p.detallePago];
    return {
      idTransaccion: p.idTransaccion,
      numeroProducto: p.numeroProducto,
      montoPagado: detalles.reduce((sum, d) => sum + d.montoPagado, 0),
      numeroAutorizacion: detalles[0]?.numeroAutorizacion ?? '',
    };
  });
}

export type OwnAccountService = ReturnType<typeof createOwnAccountService>;

/**
 * Calls 4, 5 and 6. The calls carry the session token, not a transaction id: they act on the session's current
 * transaction (the latest one call 3 created for this session).
 */
export function createOwnAccountService(db: Db, clock: Clock) {
  /** `rut` undefined: the call names no member RUT; null: it named one that is not a valid RUT. */
  async function session(token: string, rut: string | null | undefined): Promise<SessionRow | null> {
    if (rut === null) return null;
    const params = toParameterMap(await listParameters(db));
    return touchSession(db, token, rut ?? null, Number(params.sessionTimeOut ?? 5));
  }

  async function current(tx: DbOrTx, sessionId: string) {
    const [row] = await currentTransaction(tx).execute({ sessionId });
    return row ?? null;
  }

  return {
    /**
     * Call 4: the payer's password (argon2id), their account and factors.
     *
     * argon2id takes 10–25 ms of CPU on the threads of libuv's pool, which has four: checked inside the transaction,
     * it kept the transaction's and the payer's rows locked and a pooled connection idle in transaction, so a burst of
     * logins queued behind the pool's four threads held every connection and stalled every other call. The password is
     * checked first, against the hash read without locks; under the locks, that verdict counts only if the locked row
     * still has that hash and no block. Otherwise the password is checked again under the locks, as before. So parallel
     * guesses are judged one at a time in the order they take the payer's row, and only the first
     * MAX_PASSWORD_FAILURES wrong ones before a block get an answer that depends on the password.
     */
    async authenticate(request: AutenticaRequest['autenticaConsultaFactoresRequest'], requestId: string): Promise<AuthenticateResult> {
      const s = await session(request.token, undefined);
      if (!s) return refuse('476');
      const payerRut = joinRut(request.autenticacion.rut, request.autenticacion.dv.toUpperCase());
      if (!payerRut) return refuse('45203113');
      const clave = request.autenticacion.clave;

      const [seen] = await payerAccountAndFactorsForLogin(db).execute({ rut: payerRut });
      const checked = seen?.passwordHash && !seen.passwordBlockedAt ? { seen, good: await passwordMatches(seen.passwordHash, clave) } : null;

      return inTransaction(db, async (tx) => {
        const found = await current(tx, s.id);
        if (!found) return refuse('515');
        const { trx } = found;
        if (trx.status !== 'pending') return refuse('442');
        // Spec §4/§6: nobody deposits into another member's savings account.
        if (trx.family === 'AH' && payerRut !== s.rut) {
          await appendAudit(tx, { kind: 'deposito.tercero.rechazado', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion } });
          return refuse('451');
        }
        const [payer] = await payerForLogin(tx).execute({ rut: payerRut });
        if (!payer?.passwordHash) return refuse('45203113');
        if (payer.passwordBlockedAt) return refuse('45203016');
        const stillSeen = checked?.seen.payerId === payer.id && checked.seen.passwordHash === payer.passwordHash ? checked : null;
        const good = stillSeen ? stillSeen.good : await passwordMatches(payer.passwordHash, clave);
        if (!good) {
          const failures = payer.passwordFailures + 1;
          const blocked = failures >= MAX_PASSWORD_FAILURES;
          await tx
            .update(members)
            .set({ passwordFailures: failures, passwordBlockedAt: blocked ? sql`now()` : null })
            .where(eq(members.id, payer.id));
          await appendAudit(tx, { kind: blocked ? 'clave.bloqueada' : 'clave.incorrecta', rutMasked: maskRut(payerRut), requestId, detail: { intentos: failures } });
          return refuse(blocked ? '45203016' : '45203113');
        }
        const factors = stillSeen ? stillSeen.seen : (await payerAccountAndFactorsForLogin(tx).execute({ rut: payerRut }))[0];
        if (!factors?.account) return refuse('45203113');
        const { account, card, enrolment } = factors;
        // The row is locked, so the count read above is current: a clean record needs no write. The login's writes go
        // in one statement.
        await inOneStatement(
          tx,
          [
            ...(payer.passwordFailures !== 0 ? [tx.update(members).set({ passwordFailures: 0 }).where(eq(members.id, payer.id))] : []),
            auditInsert(tx, { kind: 'clave.correcta', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion } }),
          ],
          tx
            .update(transactions)
            .set({ payerRut, accountId: account.id, loginAt: sql`now()`, medioPago: 'CUENTA VISTA', updatedAt: sql`now()` })
            .where(eq(transactions.idTransaccion, trx.idTransaccion)),
        );
        const factores: (1 | 2)[] = [];
        if (card && !card.blockedAt) factores.push(1);
        if (enrolment && !enrolment.blockedAt) factores.push(2);
        return { ok: true as const, numeroCuenta: account.numeroCuenta, factores };
      });
    },

    /** Call 5: a coordinate challenge of three distinct cells (factor 1) or a push to the authoriser (factor 2). */
    async authorize(request: AutorizarRequest['autorizarPagoProductoCVRequest']): Promise<AuthorizeResult> {
      const s = await session(request.token, canonicalRut(request.rut));
      if (!s) return refuse('476');
      const payerRut = canonicalRut(request.rutPago);
      return inTransaction(db, async (tx) => {
        const [found] = await currentTransactionWithPayerFactors(tx).execute({ sessionId: s.id });
        if (!found) return refuse('515');
        const { trx, loginFresh, accountNumber: numeroCuenta, payerId, card, enrolment } = found;
        if (trx.status !== 'pending') return refuse('442');
        if (!trx.loginAt || !loginFresh || !payerRut || trx.payerRut !== payerRut || numeroCuenta === null) return refuse('440');
        if (payerId === null) return refuse('440');

        // A new request supersedes any earlier one of this transaction, also when it is refused: in the same
        // statement as the new challenge or push, or alone before the refusal.
        const supersede = tx
          .update(authorizations)
          .set({ status: 'expired', decidedAt: sql`now()` })
          .where(and(eq(authorizations.idTransaccion, trx.idTransaccion), eq(authorizations.status, 'pending')));
        let refusal: string | null = null;
        if (request.factor === 1) {
          if (!card) refusal = '5203002';
          else if (card.blockedAt) refusal = '45203017';
        } else if (!enrolment) refusal = '5203004';
        else if (enrolment.blockedAt) refusal = '7';
        if (refusal) {
          await supersede;
          return refuse(refusal);
        }
        const expiresAt = sql`now() + make_interval(secs => ${AUTHORISATION_SECONDS})`;
        if (request.factor === 1) {
          const cells = pickCells(3);
          await inOneStatement(tx, [supersede], tx.insert(authorizations).values({ idTransaccion: trx.idTransaccion, memberId: payerId, factor: 1, cells, amount: trx.total, expiresAt }));
          return { ok: true as const, numeroCuenta, desafio: cells, vigencia: AUTHORISATION_SECONDS };
        }
        await inOneStatement(tx, [supersede], tx.insert(authorizations).values({ idTransaccion: trx.idTransaccion, memberId: payerId, factor: 2, amount: trx.total, expiresAt }));
        return { ok: true as const, numeroCuenta, vigencia: AUTHORISATION_SECONDS };
      });
    },

    /**
     * Call 6, exactly once: under the transaction row's lock, a paid transaction answers its voucher again;
     * otherwise the factor is checked and the payment applied in the same database transaction.
     */
    async pay(request: PagarRequest['pagarProductoCVRequest'], requestId: string): Promise<PayResult> {
      const s = await session(request.token, canonicalRut(request.rutTitular));
      if (!s) return refuse('476');
      const payerRut = canonicalRut(request.rutPago);
      const factor = request.factor ?? 1;
      try {
        return await inTransaction(db, async (tx) => {
          const found = await current(tx, s.id);
          if (!found) return refuse('515');
          const { trx, accountNumber } = found;
          if (trx.status === 'paid') {
            const pagos = await voucherOf(tx, trx.idTransaccion);
            return pagos ? { ok: true as const, pagados: toProductosPagados(pagos) } : refuse('500');
          }
          if (trx.status !== 'pending') return refuse('442');
          if (!trx.loginAt || !payerRut || trx.payerRut !== payerRut || !trx.accountId) return refuse('440');
          if (accountNumber === null || accountNumber !== request.numeroCuenta) return refuse('440');

          const [latest] = await latestAuthorization(tx).execute({ idTransaccion: trx.idTransaccion });
          if (!latest || latest.auth.factor !== factor) return refuse('485');
          const { auth, expired } = latest;

          if (factor === 1) {
            if (auth.status !== 'pending') return refuse('485');
            if (expired) {
              await decideAuthorization(tx).execute({ status: 'expired', id: auth.id });
              return refuse('999');
            }
            const [card] = await cardOfMember(tx).execute({ memberId: auth.memberId });
            if (!card) return refuse('5203002');
            if (card.blockedAt) return refuse('5203017');
            const answers = request.desafio?.item.map((i) => i.valor) ?? [];
            const expected = (auth.cells ?? []).map((cell) => card.cells[cell]);
            const matches = answers.length === 3 && expected.every((value, i) => value === answers[i]);
            // One answer per challenge: a wrong one spends it, and the member asks for new cells.
            await decideAuthorization(tx).execute({ status: matches ? 'used' : 'expired', id: auth.id });
            if (!matches) {
              const failures = card.failures + 1;
              const blocked = failures >= MAX_COORDINATE_FAILURES;
              await tx.update(coordinateCards).set({ failures, blockedAt: blocked ? sql`now()` : null }).where(eq(coordinateCards.id, card.id));
              await appendAudit(tx, { kind: blocked ? 'coordenadas.bloqueadas' : 'coordenadas.incorrectas', rutMasked: maskRut(payerRut), requestId, detail: { intentos: failures } });
              return refuse(blocked ? '5203017' : '5203007');
            }
            // The card's row is locked: a count already at zero needs no write.
            if (card.failures !== 0) await tx.update(coordinateCards).set({ failures: 0 }).where(eq(coordinateCards.id, card.id));
          } else {
            if (auth.status === 'pending' && expired) {
              await decideAuthorization(tx).execute({ status: 'expired', id: auth.id });
              return refuse('999');
            }
            // Still waiting for the payer's phone: the browser polls every second and ignores 25.
            if (auth.status === 'pending') return refuse('25');
            if (auth.status === 'rejected') return refuse('8');
            if (auth.status !== 'approved') return refuse('485');
            await decideAuthorization(tx).execute({ status: 'used', id: auth.id });
          }

          const audit = auditInsert(tx, { kind: 'pago.cuentavista', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion: trx.idTransaccion, total: trx.total } });
          const pagos = await applyPayment(tx, trx, { medioPago: 'CUENTA VISTA', accountId: trx.accountId, cuentaPago: maskAccount(accountNumber) }, clock(), [audit]);
          return { ok: true as const, pagados: toProductosPagados(pagos) };
        });
      } catch (error) {
        if (error instanceof PaymentRefused) {
          if (error.codigo === '442') await markRejected(db, s.id);
          return refuse(error.codigo);
        }
        throw error;
      }
    },
  };
}

/** A hash that cannot be read (not argon2's format) matches no password. */
function passwordMatches(hash: string, clave: string): Promise<boolean> {
  return verify(hash, clave).catch(() => false);
}

/** A transaction whose instalments were paid by another one can never be paid: close it. */
async function markRejected(db: Db, sessionId: string) {
  await db.execute(sql`
    update transactions set status = 'rejected', updated_at = now(), settled_at = now()
    where id_transaccion = (select id_transaccion from transactions where session_id = ${sessionId} order by created_at desc limit 1)
      and status = 'pending'`);
}

/** Three distinct cells of the 10 × 5 card, chosen with a CSPRNG. */
export function pickCells(count: number): string[] {
  const all = COORDINATE_COLUMNS.flatMap((c) => COORDINATE_ROWS.map((r) => `${c}${r}`));
  const chosen: string[] = [];
  while (chosen.length < count) {
    const cell = all[randomInt(all.length)]!;
    if (!chosen.includes(cell)) chosen.push(cell);
  }
  return chosen;
}
