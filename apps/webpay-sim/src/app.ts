import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { cardDigits, TEST_CARDS } from './cards';
import { SimStore, type SimDetail, type SimTransaction } from './store';
import { FORM_CSS, AUTOSUBMIT_JS, FORM_JS } from './assets';

/** Transbank's public integration credentials: what anything written for their integration environment sends. */
export const INTEGRATION_MALL_CODE = '597055555535';
export const INTEGRATION_STORE_CODES = ['597055555536', '597055555537'] as const;
export const INTEGRATION_API_KEY = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

const API = '/rswebpaytransaction/api/webpay/v1.2';
// Characters Transbank allows in a buy order.
const BUY_ORDER_RE = /^[A-Za-z0-9|_=&%.,~:/?[+!@()>-]{1,26}$/;

export interface SimulatorOptions {
  /** Where browsers reach this server (the form URL handed out by create). */
  publicUrl: string;
  /** Seconds the cardholder has on the form before it returns as a timeout (Transbank: 5 minutes). */
  formTimeoutSeconds: number;
  /** Seconds the merchant has to commit after the return; past it the payment is reversed. */
  commitWindowSeconds: number;
  /** How the browser is sent back to return_url. */
  returnMethod: 'GET' | 'POST';
  logger?: boolean;
  /** The provider's books; pass one to read what was authorised and committed (reliability tests). */
  store?: SimStore;
  /** Milliseconds create takes before it answers, as Transbank's does on a bad day (0: at once). */
  createDelayMs?: number;
}

export const DEFAULT_SIMULATOR_OPTIONS: SimulatorOptions = {
  publicUrl: 'http://localhost:3001',
  formTimeoutSeconds: 300,
  commitWindowSeconds: 1800,
  returnMethod: 'POST',
};

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const formatClp = (n: number) => `$${String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '.')}`;

/** A whole number as Transbank reads one: a JSON number, or a string of digits (what an HTML form posts). */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

/** Text as Transbank reads it: a string, or a number written as one. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Plays Transbank's Webpay Plus Mall on its own origin: the REST API that transbank-sdk 6 calls, and the hosted
 * card form a browser is sent to with token_ws.
 */
export function buildSimulator(partial: Partial<SimulatorOptions> = {}): FastifyInstance {
  const options = { ...DEFAULT_SIMULATOR_OPTIONS, ...partial };
  const store = options.store ?? new SimStore();
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 32 * 1024 });
  void app.register(formbody);

  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });

  app.get('/health', async () => ({ status: 'ok', service: 'webpay-sim' }));

  // Test switches, as the core simulator's: a refund answered late (after the caller's timeout, as a slow network
  // does; it is still made), and the next refunds refused with Transbank's documented 284 (period exceeded).
  const faults = { refundLatencyMs: 0, refuseRefundsNext: 0 };
  app.post('/__sim/faults', async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const name of ['refundLatencyMs', 'refuseRefundsNext'] as const) {
      const value = body[name];
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) faults[name] = value;
    }
    return faults;
  });

  // Transbank answers a six-digit authorisation code per approved authorisation; this simulator never repeats one.
  const issuedCodes = new Set<string>();
  const newAuthorizationCode = (): string => {
    for (;;) {
      const code = String(randomInt(1, 1_000_000)).padStart(6, '0');
      if (!issuedCodes.has(code)) {
        issuedCodes.add(code);
        return code;
      }
    }
  };
  const fail = (reply: FastifyReply, status: number, message: string) => reply.code(status).send({ error_message: message });

  // Every API call carries the mall's commerce code and secret.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(API)) return;
    const id = request.headers['tbk-api-key-id'];
    const secret = request.headers['tbk-api-key-secret'];
    if (id !== INTEGRATION_MALL_CODE || !sameSecret(typeof secret === 'string' ? secret : undefined, INTEGRATION_API_KEY)) {
      return fail(reply, 401, 'Not Authorized');
    }
  });

  // A token past the form's window without an outcome has timed out, whoever looks at it.
  function settleTimeouts(trx: SimTransaction): void {
    if (trx.status === 'INITIALIZED' && Date.now() - trx.createdAt > options.formTimeoutSeconds * 1000) {
      trx.status = 'TIMED_OUT';
      trx.finishedAt = Date.now();
      for (const d of trx.details) {
        d.status = 'TIMED_OUT';
        d.responseCode = -1;
      }
    }
    if (trx.status === 'AUTHORIZED' && trx.committedAt === null && trx.finishedAt !== null && Date.now() - trx.finishedAt > options.commitWindowSeconds * 1000) {
      trx.status = 'REVERSED';
      for (const d of trx.details) if (d.status === 'AUTHORIZED') d.status = 'REVERSED';
    }
  }

  app.post(`${API}/transactions`, async (request, reply) => {
    const body = request.body as Record<string, unknown> | null;
    if (!body || typeof body !== 'object') return fail(reply, 400, 'Invalid request body');
    const allowed = new Set(['buy_order', 'session_id', 'return_url', 'details']);
    const extra = Object.keys(body).find((k) => !allowed.has(k));
    if (extra) return fail(reply, 400, `Unexpected field: ${extra}`);
    const buyOrder = text(body.buy_order);
    const sessionId = text(body.session_id);
    const { return_url: returnUrl, details } = body;
    if (typeof buyOrder !== 'string' || !BUY_ORDER_RE.test(buyOrder)) return fail(reply, 422, 'Invalid value for parameter: buy_order');
    if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 61) return fail(reply, 422, 'Invalid value for parameter: session_id');
    if (typeof returnUrl !== 'string' || returnUrl.length > 255 || !/^https?:\/\//.test(returnUrl)) return fail(reply, 422, 'Invalid value for parameter: return_url');
    if (!Array.isArray(details) || details.length === 0) return fail(reply, 422, 'Invalid value for parameter: details');
    if (store.hasBuyOrder(buyOrder)) return fail(reply, 422, 'Transaction already exists');
    const childOrders = new Set<string>();
    const parsed: SimDetail[] = [];
    for (const d of details as Record<string, unknown>[]) {
      const amount = wholeNumber(d?.amount);
      const commerceCode = text(d?.commerce_code);
      const childOrder = text(d?.buy_order);
      const installments = d?.installments_number === undefined ? 0 : wholeNumber(d.installments_number);
      if (amount === undefined || amount <= 0 || amount > 9_999_999_999) return fail(reply, 422, 'Invalid value for parameter: amount');
      if (typeof commerceCode !== 'string' || !(INTEGRATION_STORE_CODES as readonly string[]).includes(commerceCode)) return fail(reply, 422, 'Invalid value for parameter: commerce_code');
      if (typeof childOrder !== 'string' || !BUY_ORDER_RE.test(childOrder) || childOrders.has(childOrder)) return fail(reply, 422, 'Invalid value for parameter: buy_order');
      if (installments === undefined) return fail(reply, 422, 'Invalid value for parameter: installments_number');
      childOrders.add(childOrder);
      parsed.push({
        amount,
        commerceCode,
        buyOrder: childOrder,
        installmentsNumber: installments,
        status: 'INITIALIZED',
        responseCode: 0,
        authorizationCode: '',
        paymentTypeCode: '',
        balance: 0,
        nullified: 0,
      });
    }
    // Created first, answered late: a client that gives up meanwhile leaves a token nobody holds, as at Transbank.
    const token = randomBytes(32).toString('hex');
    store.add({ token, buyOrder, sessionId, returnUrl, details: parsed, status: 'INITIALIZED', createdAt: Date.now(), finishedAt: null, committedAt: null, cardNumber: null, vci: '' });
    if (options.createDelayMs) await new Promise((resolve) => setTimeout(resolve, options.createDelayMs));
    return { token, url: `${options.publicUrl}/webpayserver/initTransaction` };
  });

  function statusBody(trx: SimTransaction) {
    return {
      vci: trx.vci,
      details: trx.details.map((d) => ({
        amount: d.amount,
        status: d.status === 'ABORTED' || d.status === 'TIMED_OUT' ? 'FAILED' : d.status,
        authorization_code: d.authorizationCode,
        payment_type_code: d.paymentTypeCode,
        response_code: d.responseCode,
        installments_number: d.installmentsNumber,
        commerce_code: d.commerceCode,
        buy_order: d.buyOrder,
        balance: d.balance,
      })),
      buy_order: trx.buyOrder,
      session_id: trx.sessionId,
      card_detail: { card_number: trx.cardNumber ?? '' },
      accounting_date: accountingDate(trx.finishedAt ?? trx.createdAt),
      transaction_date: new Date(trx.finishedAt ?? trx.createdAt).toISOString(),
    };
  }

  app.put(`${API}/transactions/:token`, async (request, reply) => {
    const { token } = request.params as { token: string };
    const trx = store.get(token);
    if (!trx) return fail(reply, 422, 'Invalid value for parameter: token');
    settleTimeouts(trx);
    if (trx.committedAt !== null) return fail(reply, 422, 'Transaction already committed');
    if (trx.status === 'INITIALIZED') return fail(reply, 422, "Invalid status '0' for transaction while authorizing");
    if (trx.status === 'ABORTED') return fail(reply, 422, "Invalid status '10' for transaction while authorizing. Commerce will be notified by webpay to authorize");
    if (trx.status === 'TIMED_OUT' || trx.status === 'REVERSED') return fail(reply, 422, 'Transaction has an invalid finished state: aborted');
    trx.committedAt = Date.now();
    return statusBody(trx);
  });

  app.get(`${API}/transactions/:token`, async (request, reply) => {
    const { token } = request.params as { token: string };
    const trx = store.get(token);
    if (!trx) return fail(reply, 422, 'Invalid value for parameter: token');
    if (Date.now() - trx.createdAt > 7 * 24 * 3_600_000) return fail(reply, 422, 'The transactions date has passed max time (7 days) to recover the status');
    settleTimeouts(trx);
    return statusBody(trx);
  });

  app.post(`${API}/transactions/:token/refunds`, async (request, reply) => {
    if (faults.refundLatencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.refundLatencyMs));
    const { token } = request.params as { token: string };
    const body = (request.body ?? {}) as Record<string, unknown>;
    const trx = store.get(token);
    if (!trx) return fail(reply, 422, 'Invalid value for parameter: token');
    const detail = trx.details.find((d) => d.buyOrder === text(body.buy_order) && d.commerceCode === text(body.commerce_code));
    if (!detail) return fail(reply, 422, 'Invalid value for parameter: buy order not found');
    if (detail.status !== 'AUTHORIZED' || trx.committedAt === null) return fail(reply, 422, 'Transaction already fully refunded');
    const amount = wholeNumber(body.amount);
    if (amount === undefined || amount <= 0) return fail(reply, 422, 'Invalid value for parameter: amount');
    // Transbank nullifies up to 90 days after the payment (error 284, period exceeded).
    if (faults.refuseRefundsNext > 0) {
      faults.refuseRefundsNext--;
      return fail(reply, 422, 'Refund period exceeded (90 days)');
    }
    if (Date.now() - trx.committedAt > 90 * 24 * 3_600_000) return fail(reply, 422, 'Refund period exceeded (90 days)');
    // Partial refunds add up: what is left of the store's amount is all a later refund may take.
    const available = detail.amount - detail.nullified;
    if (amount > available) return fail(reply, 422, 'Amount to refund is bigger than authorized');
    if (detail.nullified === 0 && amount === detail.amount && Date.now() - trx.committedAt < 3 * 3_600_000) {
      detail.status = 'REVERSED';
      return { type: 'REVERSED' };
    }
    detail.nullified += amount;
    detail.balance = detail.amount - detail.nullified;
    detail.status = detail.balance === 0 ? 'NULLIFIED' : 'AUTHORIZED';
    return { type: 'NULLIFIED', authorization_code: String(randomInt(100_000, 1_000_000)), authorization_date: new Date().toISOString(), nullified_amount: amount, balance: detail.balance, response_code: 0 };
  });

  // What the simulator does not implement (deferred capture among it) answers in Transbank's error shape too.
  app.setNotFoundHandler((request, reply) =>
    request.url.startsWith(API) ? fail(reply, 404, `Not implemented by the simulator: ${request.method} ${request.url.split('?')[0]}`) : reply.code(404).send(),
  );

  // --- The hosted form ---

  app.get('/webpayserver/assets/form.css', async (_r, reply) => reply.type('text/css; charset=utf-8').send(FORM_CSS));
  app.get('/webpayserver/assets/form.js', async (_r, reply) => reply.type('text/javascript; charset=utf-8').send(FORM_JS));
  // Browsers ask every origin for one; no icon beats a 404 in the member's console.
  app.get('/favicon.ico', async (_r, reply) => reply.code(204).send());
  app.get('/webpayserver/assets/autosubmit.js', async (_r, reply) => reply.type('text/javascript; charset=utf-8').send(AUTOSUBMIT_JS));

  const page = (reply: FastifyReply, title: string, body: string) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', "default-src 'self'; script-src 'self'; style-src 'self'; form-action *; frame-ancestors 'none'; base-uri 'none'")
      .send(
        `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
          `<title>${escape(title)}</title><link rel="stylesheet" href="/webpayserver/assets/form.css"></head><body>` +
          `<header><span class="brand">webpay</span><span class="sim">simulador de integración</span></header><main>${body}</main></body></html>`,
      );

  /** Sends the browser back to the merchant's return_url with the given fields, by the configured method. */
  function returnToMerchant(reply: FastifyReply, trx: SimTransaction, fields: Record<string, string>) {
    if (options.returnMethod === 'GET') {
      const url = new URL(trx.returnUrl);
      for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
      return reply.redirect(url.toString(), 303);
    }
    const inputs = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
      .join('');
    return page(
      reply,
      'Volviendo al comercio',
      `<form id="return" method="post" action="${escape(trx.returnUrl)}">${inputs}<p>Volviendo al comercio…</p><button type="submit">Continuar</button></form>` +
        `<script src="/webpayserver/assets/autosubmit.js"></script>`,
    );
  }

  const tokenOf = (request: FastifyRequest) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const token = body.token_ws ?? query.token_ws ?? body.token ?? query.token;
    return typeof token === 'string' ? token : '';
  };

  const showForm = async (request: FastifyRequest, reply: FastifyReply) => {
    const trx = store.get(tokenOf(request));
    if (!trx) return page(reply.code(404), 'Transacción no encontrada', '<h1>Transacción no encontrada</h1><p>El token no es válido.</p>');
    settleTimeouts(trx);
    if (trx.status === 'TIMED_OUT') return returnToMerchant(reply, trx, { TBK_ORDEN_COMPRA: trx.buyOrder, TBK_ID_SESION: trx.sessionId });
    if (trx.status !== 'INITIALIZED') return page(reply.code(409), 'Transacción finalizada', '<h1>Esta transacción ya fue procesada</h1>');
    const total = trx.details.reduce((sum, d) => sum + d.amount, 0);
    const secondsLeft = Math.max(0, Math.ceil(options.formTimeoutSeconds - (Date.now() - trx.createdAt) / 1000));
    return page(
      reply,
      'Webpay - Pago con tarjeta',
      `<h1>Pago con tarjeta</h1><p class="amount">Monto a pagar <strong>${formatClp(total)}</strong></p>` +
        `<p class="note">Orden de compra ${escape(trx.buyOrder)} · ${trx.details.length} comercio(s)</p>` +
        `<form method="post" action="/webpayserver/pay" class="card" data-timeout="${secondsLeft}" data-timeout-url="/webpayserver/timeout?token=${escape(trx.token)}">` +
        `<input type="hidden" name="token" value="${escape(trx.token)}">` +
        `<label for="card">Número de tarjeta</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required>` +
        `<div class="row"><div><label for="expiry">Vencimiento (MM/AA)</label><input id="expiry" name="expiry" placeholder="12/29" autocomplete="cc-exp" required></div>` +
        `<div><label for="cvv">CVV</label><input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" required></div></div>` +
        `<button type="submit" class="pay">Pagar</button></form>` +
        `<form method="post" action="/webpayserver/abort"><input type="hidden" name="token" value="${escape(trx.token)}"><button type="submit" class="abort">Anular compra y volver al comercio</button></form>` +
        `<p class="note" id="timer" aria-live="off">Tienes ${Math.floor(secondsLeft / 60)} minutos para completar el pago.</p>` +
        `<script src="/webpayserver/assets/form.js"></script>`,
    );
  };
  app.post('/webpayserver/initTransaction', showForm);
  app.get('/webpayserver/initTransaction', showForm);

  app.post('/webpayserver/pay', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    const trx = store.get(tokenOf(request));
    if (!trx) return page(reply.code(404), 'Transacción no encontrada', '<h1>Transacción no encontrada</h1>');
    settleTimeouts(trx);
    if (trx.status === 'TIMED_OUT') return returnToMerchant(reply, trx, { TBK_ORDEN_COMPRA: trx.buyOrder, TBK_ID_SESION: trx.sessionId });
    if (trx.status !== 'INITIALIZED') return page(reply.code(409), 'Transacción finalizada', '<h1>Esta transacción ya fue procesada</h1>');
    const digits = cardDigits(body.card ?? '');
    const card = TEST_CARDS[digits];
    const expiryOk = /^(0[1-9]|1[0-2])\/?\d{2}$/.test((body.expiry ?? '').trim());
    const cvvOk = /^\d{3,4}$/.test((body.cvv ?? '').trim());
    const approved = Boolean(card?.approved && expiryOk && cvvOk);
    trx.cardNumber = digits.slice(-4);
    trx.finishedAt = Date.now();
    trx.vci = approved ? 'TSY' : 'TSN';
    for (const d of trx.details) {
      d.status = approved ? 'AUTHORIZED' : 'FAILED';
      d.responseCode = approved ? 0 : -1;
      d.authorizationCode = approved ? newAuthorizationCode() : '000000';
      d.paymentTypeCode = card?.paymentTypeCode ?? 'VN';
    }
    trx.status = approved ? 'AUTHORIZED' : 'FAILED';
    return returnToMerchant(reply, trx, { token_ws: trx.token });
  });

  app.post('/webpayserver/abort', async (request, reply) => {
    const trx = store.get(tokenOf(request));
    if (!trx) return page(reply.code(404), 'Transacción no encontrada', '<h1>Transacción no encontrada</h1>');
    settleTimeouts(trx);
    if (trx.status === 'INITIALIZED') {
      trx.status = 'ABORTED';
      trx.finishedAt = Date.now();
      for (const d of trx.details) {
        d.status = 'ABORTED';
        d.responseCode = -1;
      }
    }
    return returnToMerchant(reply, trx, { TBK_TOKEN: trx.token, TBK_ORDEN_COMPRA: trx.buyOrder, TBK_ID_SESION: trx.sessionId });
  });

  // Reached by the form's own timer; the same rule also applies server-side whenever the token is touched.
  app.get('/webpayserver/timeout', async (request, reply) => {
    const trx = store.get(tokenOf(request));
    if (!trx) return page(reply.code(404), 'Transacción no encontrada', '<h1>Transacción no encontrada</h1>');
    settleTimeouts(trx);
    if (trx.status !== 'TIMED_OUT') return showForm(request, reply);
    return returnToMerchant(reply, trx, { TBK_ORDEN_COMPRA: trx.buyOrder, TBK_ID_SESION: trx.sessionId });
  });

  return app;
}

function accountingDate(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}
