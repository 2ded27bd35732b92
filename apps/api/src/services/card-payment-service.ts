import { businessToday } from '@pago/domain/business-time';
import type { Family } from '@pago/domain/families';
import { debitCreditSwitchName, graceDaysName, toParameterMap, webPaySwitchName } from '@pago/domain/parameters';
import { instalmentState, isPastGrace } from '@pago/domain/products';
import { maskRut } from '@pago/domain/rut';
import { and, asc, eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import { inTransaction, type Db, type Tx } from '../db/client';
import { products, transactionItems, transactions, webpayAttempts, type WebpayStore } from '../db/schema';
import { appendAudit } from '../repositories/audit-repository';
import { listParameters } from '../repositories/parameters-repository';
import { applyPayment, PaymentRefused, type TransactionRow } from './payment-service';
import { isoToWire } from './product-view';
import { hashToken, touchSession } from './session-service';
import { isApproved, type WebpayCall, type WebpayClient, type WebpayResult } from './webpay-client';

type Refusal = { ok: false; codigo: string };
const refuse = (codigo: string): Refusal => ({ ok: false, codigo });

/** What the member's browser is told when it comes back from Webpay: where to look next. */
export type ReturnEstado = 'aprobado' | 'parcial' | 'rechazado' | 'anulado' | 'pendiente' | 'error';
export interface ReturnOutcome {
  idTransaccion: string | null;
  estado: ReturnEstado;
}

export interface StoreRequest {
  amount: number;
  commerceCode: string;
  transactionId: string;
}

export type CardPaymentService = ReturnType<typeof createCardPaymentService>;

export interface CardPaymentOptions {
  publicBaseUrl: string;
  settleAfterSeconds: number;
}

/**
 * The payment host (calls 9 and 10, the return from Webpay, reconciliation). Webpay is outside: every answer of
 * it is checked against what we sent, and the money it took is applied exactly once under the transaction's lock,
 * or refunded when it can no longer be applied.
 */
export function createCardPaymentService(db: Db, clock: Clock, webpay: WebpayClient, options: CardPaymentOptions, log: FastifyBaseLogger) {
  // A line written while serving a request names it; the reconciliation's lines have no request.
  const logFor = (requestId: string | null) => (requestId ? log.child({ reqId: requestId }) : log);
  const returnUrl = `${options.publicBaseUrl}/api/pagoexpress/webpay/return`;

  async function params() {
    return toParameterMap(await listParameters(db));
  }

  /** The stores of a transaction: one per product, commerce code chosen by pagoDebitoCredito{family}. */
  async function storesOf(tx: Tx, trx: TransactionRow, p: Awaited<ReturnType<typeof params>>): Promise<Omit<WebpayStore, 'buyOrder'>[]> {
    const rows = await tx
      .select({ productId: transactionItems.productId, numeroProducto: products.numeroProducto, monto: transactionItems.monto })
      .from(transactionItems)
      .innerJoin(products, eq(products.id, transactionItems.productId))
      .where(eq(transactionItems.idTransaccion, trx.idTransaccion))
      .orderBy(asc(products.numeroProducto));
    const family = trx.family as Family;
    const commerceCode = p[debitCreditSwitchName(family)] === '1' ? p.pagoWPDebitoCredito : p.pagoWPDebito;
    const stores = new Map<string, Omit<WebpayStore, 'buyOrder'>>();
    for (const r of rows) {
      const store = stores.get(r.productId) ?? { productId: r.productId, numeroProducto: r.numeroProducto, amount: 0, commerceCode: commerceCode ?? '' };
      store.amount += r.monto;
      stores.set(r.productId, store);
    }
    return [...stores.values()];
  }

  /** Spec §2/§4: the card method exists when pagoWebPay{family} is on, or every instalment paid is past grace. */
  async function cardMethodAllowed(tx: Tx, trx: TransactionRow, p: Awaited<ReturnType<typeof params>>): Promise<boolean> {
    const family = trx.family as Family;
    if (p[webPaySwitchName(family)] === '1') return true;
    const items = await tx.select({ due: transactionItems.fechaVencimiento }).from(transactionItems).where(eq(transactionItems.idTransaccion, trx.idTransaccion));
    const today = businessToday(clock());
    const grace = Number(p[graceDaysName(family)] ?? 0);
    return items.length > 0 && items.every((i) => i.due !== null && isPastGrace(instalmentState(isoToWire(i.due), today), grace));
  }

  /** Applies what Webpay approved, refunding it instead when the transaction can no longer take it. */
  async function settle(tx: Tx, attempt: typeof webpayAttempts.$inferSelect, trx: TransactionRow, result: WebpayResult, requestId: string | null): Promise<ReturnEstado> {
    const matches =
      result.buy_order === attempt.buyOrder &&
      result.details.length === attempt.stores.length &&
      result.details.every((d) => attempt.stores.some((s) => s.buyOrder === d.buy_order && s.amount === d.amount && s.commerceCode === String(d.commerce_code)));
    const approved = result.details.filter(isApproved);
    const finish = async (status: string) =>
      tx.update(webpayAttempts).set({ status, settledAt: sql`now()`, checkedAt: sql`now()` }).where(eq(webpayAttempts.token, attempt.token));
    // Refunds and closes the attempt; when Webpay gives no answer, leaves it pending (checked now) so that the
    // reconciliation asks again later and refunds whatever is still approved: money taken is never kept unapplied.
    const giveBack = async () => {
      if (await refundAll(attempt, approved, requestId)) {
        await finish('refunded');
        return true;
      }
      await tx.update(webpayAttempts).set({ checkedAt: sql`now()` }).where(eq(webpayAttempts.token, attempt.token));
      return false;
    };

    if (!matches) {
      // Webpay's answer does not describe what we sent: take nothing, give back anything taken, and leave a trail.
      logFor(requestId).error({ idTransaccion: trx.idTransaccion }, 'webpay answer does not match the stores sent');
      await appendAudit(tx, { kind: 'webpay.discrepancia', requestId, detail: { idTransaccion: trx.idTransaccion, buyOrder: attempt.buyOrder } });
      await giveBack();
      return 'error';
    }
    if (approved.length === 0) {
      await finish('rejected');
      if (trx.status === 'pending') {
        await tx.update(transactions).set({ status: 'rejected', settledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(transactions.idTransaccion, trx.idTransaccion));
      }
      return trx.status === 'paid' ? 'aprobado' : 'rechazado';
    }
    if (trx.status !== 'pending') {
      // Already paid (another tab, another method) or closed: this money must go back.
      if (await giveBack()) await appendAudit(tx, { kind: 'webpay.reembolso', requestId, detail: { idTransaccion: trx.idTransaccion, motivo: trx.status } });
      return trx.status === 'paid' ? 'aprobado' : 'rechazado';
    }
    const approvedProducts = new Set(approved.map((d) => attempt.stores.find((s) => s.buyOrder === d.buy_order)!.productId));
    const codes = Object.fromEntries(
      approved.map((d) => [attempt.stores.find((s) => s.buyOrder === d.buy_order)!.numeroProducto, d.authorization_code ?? '']),
    );
    const card = result.card_detail?.card_number ?? '';
    try {
      // A savepoint: if the instalments were paid meanwhile, only the application rolls back, not the bookkeeping.
      await tx.transaction((sp) =>
        applyPayment(sp, trx, { medioPago: 'WEBPAY', cuentaPago: card ? `**** ${card}` : 'Webpay', authorizationCodes: codes, productIds: approvedProducts }, clock()),
      );
    } catch (error) {
      if (!(error instanceof PaymentRefused)) throw error;
      const refunded = await giveBack();
      await tx.update(transactions).set({ status: 'rejected', settledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(transactions.idTransaccion, trx.idTransaccion));
      if (refunded) await appendAudit(tx, { kind: 'webpay.reembolso', requestId, detail: { idTransaccion: trx.idTransaccion, motivo: error.codigo } });
      return 'rechazado';
    }
    await finish('committed');
    await appendAudit(tx, { kind: 'pago.webpay', requestId, detail: { idTransaccion: trx.idTransaccion, tiendas: approved.length, de: result.details.length } });
    return approved.length === result.details.length ? 'aprobado' : 'parcial';
  }

  /** Refunds every approved store; false when one got no answer from Webpay (to be asked again later). */
  async function refundAll(attempt: typeof webpayAttempts.$inferSelect, approved: WebpayResult['details'], requestId: string | null): Promise<boolean> {
    let answered = true;
    for (const d of approved) {
      const res = await webpay.refund(attempt.token, d.buy_order, String(d.commerce_code), d.amount);
      if (res.ok) continue;
      if (res.kind === 'unavailable') {
        answered = false;
        logFor(requestId).warn({ buyOrder: d.buy_order, kind: res.kind }, 'webpay refund got no answer: the reconciliation will ask again');
      } else logFor(requestId).error({ buyOrder: d.buy_order, kind: res.kind }, 'webpay refund refused: needs manual follow-up');
    }
    return answered;
  }

  /** Commit, or when Webpay says it is already committed, read the status instead. */
  async function commitOrStatus(token: string): Promise<WebpayCall<WebpayResult>> {
    const committed = await webpay.commit(token);
    if (committed.ok || committed.kind === 'unavailable') return committed;
    return webpay.status(token);
  }

  async function lockAttempt(tx: Tx, where: ReturnType<typeof eq>) {
    const [attempt] = await tx.select().from(webpayAttempts).where(where).for('update');
    if (!attempt) return null;
    const [trx] = await tx.select().from(transactions).where(eq(transactions.idTransaccion, attempt.idTransaccion)).for('update');
    return trx ? { attempt, trx } : null;
  }

  function estadoOf(attemptStatus: string, trxStatus: string): ReturnEstado {
    if (attemptStatus === 'committed') return 'aprobado';
    if (attemptStatus === 'cancelled' || attemptStatus === 'expired') return 'anulado';
    if (attemptStatus === 'pending') return 'pendiente';
    return trxStatus === 'paid' ? 'aprobado' : 'rechazado';
  }

  /** The member left the form (abort or timeout): nothing was charged; the transaction is cancelled. */
  async function cancel(where: ReturnType<typeof eq>, requestId: string | null): Promise<ReturnOutcome> {
    return db.transaction(async (tx) => {
      const locked = await lockAttempt(tx, where);
      if (!locked) return { idTransaccion: null, estado: 'error' as const };
      const { attempt, trx } = locked;
      if (attempt.status !== 'pending') return { idTransaccion: trx.idTransaccion, estado: estadoOf(attempt.status, trx.status) };
      await tx.update(webpayAttempts).set({ status: 'cancelled', settledAt: sql`now()` }).where(eq(webpayAttempts.token, attempt.token));
      if (trx.status === 'pending') {
        await tx.update(transactions).set({ status: 'cancelled', settledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(transactions.idTransaccion, trx.idTransaccion));
      }
      await appendAudit(tx, { kind: 'webpay.anulado', requestId, detail: { idTransaccion: trx.idTransaccion } });
      return { idTransaccion: trx.idTransaccion, estado: trx.status === 'paid' ? ('aprobado' as const) : ('anulado' as const) };
    });
  }

  return {
    /** Call 9: the member's session (Bearer) asks to pay its transaction by card; answers a payment-host token. */
    async auth(sessionToken: string, idTransaccion: string, requestId: string): Promise<{ ok: true; token: string } | Refusal> {
      const p = await params();
      const session = await touchSession(db, sessionToken, null, Number(p.sessionTimeOut ?? 5));
      if (!session) return refuse('476');
      return db.transaction(async (tx) => {
        const [trx] = await tx
          .select()
          .from(transactions)
          .where(and(eq(transactions.idTransaccion, idTransaccion), eq(transactions.sessionId, session.id)))
          .for('update');
        if (!trx) return refuse('515');
        if (trx.status !== 'pending') return refuse('442');
        if (!(await cardMethodAllowed(tx, trx, p))) return refuse('49010');
        const token = randomBytes(32).toString('base64url');
        await tx.update(transactions).set({ hostTokenHash: hashToken(token), medioPago: 'WEBPAY', updatedAt: sql`now()` }).where(eq(transactions.idTransaccion, trx.idTransaccion));
        await appendAudit(tx, { kind: 'webpay.auth', rutMasked: maskRut(session.rut), requestId, detail: { idTransaccion } });
        return { ok: true as const, token };
      });
    },

    /** Call 10: opens the Webpay Mall transaction, one store per product, amounts from the frozen selection. */
    async initMall(hostToken: string, transactionId: string, stores: StoreRequest[], requestId: string): Promise<{ ok: true; token: string; url: string } | Refusal> {
      const p = await params();
      return db.transaction(async (tx) => {
        const [trx] = await tx.select().from(transactions).where(eq(transactions.hostTokenHash, hashToken(hostToken))).for('update');
        if (!trx || trx.idTransaccion !== transactionId) return refuse('515');
        if (trx.status !== 'pending') return refuse('442');
        const expected = await storesOf(tx, trx, p);
        const same =
          stores.length === expected.length &&
          expected.every((e) => stores.some((s) => s.transactionId === e.numeroProducto && s.amount === e.amount && s.commerceCode === e.commerceCode));
        if (!same) return refuse('463');
        const buyOrder = `PO${randomBytes(8).toString('hex')}`;
        const withOrders: WebpayStore[] = expected.map((s, i) => ({ ...s, buyOrder: `${buyOrder}-${i + 1}` }));
        // Webpay sees our session's id (not its token): it comes back as TBK_ID_SESION and names nothing secret.
        const created = await webpay.create(buyOrder, trx.sessionId, returnUrl, withOrders);
        if (!created.ok) {
          logFor(requestId).error({ idTransaccion: trx.idTransaccion, kind: created.kind, status: created.ok ? null : 'status' in created ? created.status : null }, 'webpay create failed');
          return refuse(created.kind === 'unavailable' ? '503' : '502');
        }
        await tx.insert(webpayAttempts).values({ token: created.data.token, idTransaccion: trx.idTransaccion, buyOrder, stores: withOrders });
        await appendAudit(tx, { kind: 'webpay.init', requestId, detail: { idTransaccion: trx.idTransaccion, buyOrder, tiendas: withOrders.length } });
        return { ok: true as const, token: created.data.token, url: created.data.url };
      });
    },

    /**
     * The browser's return from Webpay, by GET or POST, with no cookie needed. The four flows are told apart
     * before anything is committed (Transbank's docs, 'Resumen de flujos').
     */
    async handleReturn(fields: Record<string, unknown>, requestId: string): Promise<ReturnOutcome> {
      // Webpay's tokens and buy orders are short printable ASCII; anything else is not Webpay's and finds nothing.
      const str = (k: string) => (typeof fields[k] === 'string' && /^[\x21-\x7e]{1,128}$/.test(fields[k] as string) ? (fields[k] as string) : undefined);
      const tokenWs = str('token_ws');
      const tbkToken = str('TBK_TOKEN');
      const orden = str('TBK_ORDEN_COMPRA');
      if (tokenWs && !tbkToken) return this.settleToken(tokenWs, requestId);
      if (tbkToken) return cancel(eq(webpayAttempts.token, tokenWs ?? tbkToken), requestId);
      if (orden) return cancel(eq(webpayAttempts.buyOrder, orden), requestId);
      return { idTransaccion: null, estado: 'error' };
    },

    /** Normal return: commit once under the attempt's and the transaction's locks; a repeat finds it settled. */
    async settleToken(token: string, requestId: string | null): Promise<ReturnOutcome> {
      // inTransaction: applyPayment's statements run prepared.
      return inTransaction(db, async (tx) => {
        const locked = await lockAttempt(tx, eq(webpayAttempts.token, token));
        if (!locked) return { idTransaccion: null, estado: 'error' as const };
        const { attempt, trx } = locked;
        if (attempt.status !== 'pending') return { idTransaccion: trx.idTransaccion, estado: estadoOf(attempt.status, trx.status) };
        const result = await commitOrStatus(token);
        if (!result.ok) {
          await tx.update(webpayAttempts).set({ checkedAt: sql`now()` }).where(eq(webpayAttempts.token, token));
          logFor(requestId).warn({ idTransaccion: trx.idTransaccion, kind: result.kind }, 'webpay commit without an answer: left for reconciliation');
          return { idTransaccion: trx.idTransaccion, estado: 'pendiente' as const };
        }
        if (result.data.details.every((d) => d.status === 'INITIALIZED')) return { idTransaccion: trx.idTransaccion, estado: 'pendiente' as const };
        return { idTransaccion: trx.idTransaccion, estado: await settle(tx, attempt, trx, result.data, requestId) };
      });
    },

    /**
     * Settles attempts the browser never came back for, older than the form's lifetime. SKIP LOCKED lets every
     * replica run it: each attempt is taken by one of them. Returns what it did and the backlog left.
     */
    async reconcileOnce(limit = 20): Promise<{ settled: number; backlog: number }> {
      let settled = 0;
      for (let i = 0; i < limit; i++) {
        const done = await inTransaction(db, async (tx) => {
          const [attempt] = await tx
            .select()
            .from(webpayAttempts)
            .where(
              and(
                eq(webpayAttempts.status, 'pending'),
                sql`${webpayAttempts.createdAt} < now() - make_interval(secs => ${options.settleAfterSeconds})`,
                // One that gave no answer is asked again, but not on every run.
                sql`(${webpayAttempts.checkedAt} is null or ${webpayAttempts.checkedAt} < now() - make_interval(secs => 30))`,
              ),
            )
            .orderBy(asc(webpayAttempts.createdAt))
            .limit(1)
            .for('update', { skipLocked: true });
          if (!attempt) return false;
          const [trx] = await tx.select().from(transactions).where(eq(transactions.idTransaccion, attempt.idTransaccion)).for('update');
          if (!trx) return false;
          const result = await commitOrStatus(attempt.token);
          if (!result.ok) {
            await tx.update(webpayAttempts).set({ checkedAt: sql`now()` }).where(eq(webpayAttempts.token, attempt.token));
            log.warn({ idTransaccion: trx.idTransaccion, kind: result.kind }, 'reconciliation: webpay gave no answer, will ask again');
            return true;
          }
          // No card was ever entered (the form was left unused, aborted or timed out): nothing was charged.
          const untouched = !result.data.card_detail?.card_number && result.data.details.every((d) => !isApproved(d));
          if (untouched) {
            await tx.update(webpayAttempts).set({ status: 'expired', settledAt: sql`now()`, checkedAt: sql`now()` }).where(eq(webpayAttempts.token, attempt.token));
            // A reload of the card screen opened a newer form for this transaction: it may still be paid there, so
            // the transaction expires only with its last open form (the transaction's lock orders the replicas).
            const [open] = await tx
              .select({ n: sql<number>`count(*)::int` })
              .from(webpayAttempts)
              .where(and(eq(webpayAttempts.idTransaccion, trx.idTransaccion), eq(webpayAttempts.status, 'pending')));
            if (trx.status === 'pending' && Number(open?.n ?? 0) === 0) {
              await tx.update(transactions).set({ status: 'expired', settledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(transactions.idTransaccion, trx.idTransaccion));
            }
          } else {
            await settle(tx, attempt, trx, result.data, null);
          }
          settled++;
          return true;
        });
        if (!done) break;
      }
      const backlog = await db.$count(
        webpayAttempts,
        and(eq(webpayAttempts.status, 'pending'), sql`${webpayAttempts.createdAt} < now() - make_interval(secs => ${options.settleAfterSeconds})`),
      );
      if (settled > 0 || backlog > 0) log.info({ settled, backlog }, 'webpay reconciliation');
      return { settled, backlog };
    },

  };
}
