import { businessToday } from '@pago/domain/business-time';
import { kindOf } from '@pago/domain/families';
import type { Family } from '@pago/domain/families';
import { CARD_DEPOSIT_CEILING_NAME, debitCreditSwitchName, toParameterMap, type ParameterMap } from '@pago/domain/parameters';
import { cardMethodOffered, instalmentState, overdueState } from '@pago/domain/products';
import { maskRut } from '@pago/domain/rut';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import type { Db, Tx } from '../db/client';
import type { WebpayStore } from '../db/schema';
import { appendAudit } from '../repositories/audit-repository';
import { listParameters } from '../repositories/parameters-repository';
import { lockProducts, productNumbers } from '../repositories/product-repository';
import { sessionIsLive } from '../repositories/session-repository';
import { itemsOf, lockByHostTokenHash, lockOfSession, moveTransaction, setHostToken, type ItemRow, type TransactionRow } from '../repositories/transaction-repository';
import { cardDepositsLastDay, insertIntent, moveAttempt } from '../repositories/webpay-attempt-repository';
import { isoToWire, productRef } from './product-view';
import { paymentWindowRefusal } from './payment-window';
import { checkPayable, refuseIfPaidElsewhere } from './payment-service';
import { refuse, type Refusal } from './refusal';
import { hashToken, touchSession } from './session-service';
import type { WebpayClient } from './webpay-client';

export interface StoreRequest {
  amount: number;
  commerceCode: string;
  transactionId: string;
}

type Store = Omit<WebpayStore, 'buyOrder'>;

/** The stores of a transaction: one per product, by product number; commerce code chosen by pagoDebitoCredito{family}. */
function storesOf(trx: TransactionRow, items: ItemRow[], numbers: Map<string, string>, p: Partial<ParameterMap>): Store[] {
  const commerceCode = (p[debitCreditSwitchName(trx.family as Family)] === '1' ? p.pagoWPDebitoCredito : p.pagoWPDebito) ?? '';
  const stores = new Map<string, Store>();
  for (const item of items) {
    const store = stores.get(item.productId) ?? { productId: item.productId, numeroProducto: numbers.get(item.productId) ?? '', amount: 0, commerceCode };
    store.amount += item.monto;
    stores.set(item.productId, store);
  }
  return [...stores.values()].sort((a, b) => a.numeroProducto.localeCompare(b.numeroProducto));
}

/** Spec §2/§4: the card method, by the domain's rule, for the instalments the transaction holds (none dated: current). */
function cardMethodAllowed(trx: TransactionRow, items: ItemRow[], p: Partial<ParameterMap>, today: string): boolean {
  const paid = items.map((i) => (i.fechaVencimiento === null ? overdueState(0) : instalmentState(isoToWire(i.fechaVencimiento), today)));
  return cardMethodOffered(trx.family as Family, p, paid);
}

/**
 * The first savings deposit that would take its account past the ceiling of card deposits in 24 hours. It counts what
 * Webpay took, this session's open forms, and other sessions' open forms up to half the ceiling: anyone who knows the
 * RUT can open a form, so an unpaid one of someone else's never leaves the member less than half the day's room,
 * while what open forms may take stays bounded (below one and a half ceilings with what Webpay took). The account's
 * row is locked first, so two deposits into it never both pass on the same sum.
 */
async function savingsOverCeiling(tx: Tx, sessionId: string, stores: Store[], ceiling: number): Promise<{ amount: number; previous: number } | null> {
  await lockProducts(tx, stores.map((s) => s.productId));
  for (const store of stores) {
    const sent = await cardDepositsLastDay(tx, store.productId, sessionId);
    const previous = sent.taken + sent.openHere + Math.min(sent.openElsewhere, Math.floor(ceiling / 2));
    if (!Number.isFinite(ceiling) || previous + store.amount > ceiling) return { amount: store.amount, previous };
  }
  return null;
}

export interface CardStartOptions {
  publicBaseUrl: string;
  /** How long an opened Webpay form holds its instalments (WEBPAY_SETTLE_AFTER_SECONDS), as at selection (443). */
  settleAfterSeconds: number;
}

/** Calls 9 and 10: from the member's transaction to a Webpay Mall form, one store per product. */
export function createCardStartService(db: Db, clock: Clock, webpay: WebpayClient, options: CardStartOptions, log: FastifyBaseLogger) {
  const returnUrl = `${options.publicBaseUrl}/api/pagoexpress/webpay/return`;
  const params = async () => toParameterMap(await listParameters(db));

  return {
    /** Call 9: the member's session (Bearer) asks to pay its transaction by card; answers a payment-host token. */
    async auth(sessionToken: string, idTransaccion: string, requestId: string): Promise<{ ok: true; token: string } | Refusal> {
      const p = await params();
      const session = await touchSession(db, sessionToken, null, Number(p.sessionTimeOut ?? 5));
      if (!session) return refuse('476');
      return db.transaction(async (tx) => {
        const trx = await lockOfSession(tx, idTransaccion, session.id);
        if (!trx) return refuse('515');
        if (trx.status !== 'pending') return refuse('442');
        const closed = paymentWindowRefusal(p, trx.family as Family, clock());
        if (closed) return refuse(closed);
        if (!cardMethodAllowed(trx, await itemsOf(tx, trx.idTransaccion), p, businessToday(clock()))) return refuse('49010');
        const elsewhere = await refuseIfPaidElsewhere(tx, trx, { call: 'pagoexpress/auth', webpayOpenSeconds: options.settleAfterSeconds, requestId, rutMasked: maskRut(session.rut) });
        if (elsewhere) return elsewhere;
        const token = randomBytes(32).toString('base64url');
        await setHostToken(tx, trx.idTransaccion, hashToken(token));
        await appendAudit(tx, { kind: 'webpay.auth', rutMasked: maskRut(session.rut), requestId, detail: { idTransaccion } });
        return { ok: true as const, token };
      });
    },

    /**
     * Call 10: opens the Webpay Mall transaction; the stores must be the ones the frozen selection gives. Intent, call,
     * outcome (decision 044): every check and the attempt's intent (`creating`, its buy order and stores) in one short
     * transaction; Webpay's create with no transaction open; its token (`pending`) or its failure (`not_opened`) in a
     * second. A crash in between leaves the intent to the reconciliation, which closes it: nobody holds its token.
     */
    async initMall(hostToken: string, transactionId: string, stores: StoreRequest[], requestId: string): Promise<{ ok: true; token: string; url: string } | Refusal> {
      const p = await params();
      const intent = await db.transaction(async (tx) => {
        const trx = await lockByHostTokenHash(tx, hashToken(hostToken));
        if (!trx || trx.idTransaccion !== transactionId) return refuse('515');
        if (trx.status !== 'pending') return refuse('442');
        // The payment-host token lives only as long as the member's session.
        if (!(await sessionIsLive(tx, trx.sessionId, Number(p.sessionTimeOut ?? 5)))) return refuse('476');
        const closed = paymentWindowRefusal(p, trx.family as Family, clock());
        if (closed) return refuse(closed);
        const items = await itemsOf(tx, trx.idTransaccion);
        if (!cardMethodAllowed(trx, items, p, businessToday(clock()))) return refuse('49010');
        const expected = storesOf(trx, items, await productNumbers(tx, [...new Set(items.map((i) => i.productId))]), p);
        // The browser names each store by the product's reference in the session (the list's numeroProducto).
        const refOf = (e: Store) => productRef(trx.sessionId, { id: e.productId, numeroProducto: e.numeroProducto });
        const same =
          stores.length === expected.length &&
          expected.every((e) => stores.some((s) => s.transactionId === refOf(e) && s.amount === e.amount && s.commerceCode === e.commerceCode));
        if (!same) return refuse('463');
        // Under the instalments' locks call 6's debit takes too: an own-account payment or another form of them under
        // way elsewhere refuses this one, and this intent, once committed, refuses them.
        const elsewhere = await refuseIfPaidElsewhere(tx, trx, { call: 'pagoexpress/initMall', webpayOpenSeconds: options.settleAfterSeconds, requestId, rutMasked: null, locked: true });
        if (elsewhere) return elsewhere;
        // Paid since the selection (the other tab's debit booked): no form is opened on money owed no more.
        const payable = await checkPayable(tx, trx, items);
        if (!payable.ok) {
          if (payable.codigo === '442') await moveTransaction(tx, trx.idTransaccion, 'pending', 'rejected');
          return payable;
        }
        // The intent below counts as an open form from its commit on, so two forms racing here both see each other.
        const overCeiling = kindOf(trx.family) === 'savings' ? await savingsOverCeiling(tx, trx.sessionId, expected, Number(p[CARD_DEPOSIT_CEILING_NAME])) : null;
        if (overCeiling) {
          await appendAudit(tx, { kind: 'webpay.tope.ahorro', requestId, detail: { idTransaccion: trx.idTransaccion, monto: overCeiling.amount, previo: overCeiling.previous } });
          return refuse('505');
        }
        const buyOrder = `PO${randomBytes(8).toString('hex')}`;
        const withOrders: WebpayStore[] = expected.map((s, i) => ({ ...s, buyOrder: `${buyOrder}-${i + 1}` }));
        await insertIntent(tx, { idTransaccion: trx.idTransaccion, buyOrder, stores: withOrders });
        return { ok: true as const, idTransaccion: trx.idTransaccion, sessionId: trx.sessionId, buyOrder, stores: withOrders };
      });
      if (!intent.ok) return intent;
      const { idTransaccion, buyOrder, stores: withOrders } = intent;

      // Webpay sees our session's id (not its token): it comes back as TBK_ID_SESION and names nothing secret.
      const created = await webpay.create(buyOrder, intent.sessionId, returnUrl, withOrders);

      return db.transaction(async (tx) => {
        if (!created.ok) {
          log.child({ reqId: requestId }).error({ idTransaccion, kind: created.kind, status: 'status' in created ? created.status : null }, 'webpay create failed');
          // Unanswered, Webpay may have made it; its token reached nobody, so no card can be entered on it.
          await moveAttempt(tx, { buyOrder }, 'creating', 'not_opened');
          return refuse(created.kind === 'unavailable' ? '503' : '502');
        }
        const opened = await moveAttempt(tx, { buyOrder }, 'creating', 'pending', { token: created.data.token, settledAt: null, checkedAt: null });
        // Closed meanwhile by the reconciliation: a form we no longer follow is never handed to the member.
        if (!opened) return refuse('503');
        await appendAudit(tx, { kind: 'webpay.init', requestId, detail: { idTransaccion, buyOrder, tiendas: withOrders.length } });
        return { ok: true as const, token: created.data.token, url: created.data.url };
      });
    },
  };
}
