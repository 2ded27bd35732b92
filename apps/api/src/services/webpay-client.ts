import { tb } from './transbank';

export interface WebpayDetail {
  amount: number;
  status: string;
  authorization_code?: string;
  payment_type_code?: string;
  response_code: number;
  installments_number?: number;
  commerce_code: string;
  buy_order: string;
  /** What is left after partial refunds (Transbank reports it once a store was partly refunded; 0 or absent before). */
  balance?: number;
}

export interface WebpayResult {
  vci?: string;
  details: WebpayDetail[];
  buy_order: string;
  session_id: string;
  card_detail?: { card_number?: string };
  transaction_date?: string;
}

export type WebpayCall<T> =
  | { ok: true; data: T }
  /** Webpay answered and refused (4xx): the message is Webpay's, never to be shown to the member as is. */
  | { ok: false; kind: 'refused'; status: number; message: string }
  /** No usable answer (timeout, network, 5xx): the outcome is unknown and must be asked again later. */
  | { ok: false; kind: 'unavailable'; message: string };

export interface WebpayClient {
  create(buyOrder: string, sessionId: string, returnUrl: string, stores: { amount: number; commerceCode: string; buyOrder: string }[]): Promise<WebpayCall<{ token: string; url: string }>>;
  commit(token: string): Promise<WebpayCall<WebpayResult>>;
  status(token: string): Promise<WebpayCall<WebpayResult>>;
  refund(token: string, buyOrder: string, commerceCode: string, amount: number): Promise<WebpayCall<{ type: string }>>;
}

/**
 * TransbankError carries no status: the SDK folds it into the message ("…status code 422\n<error_message>").
 * Read it back so that a refusal is told apart from a failure to get an answer.
 */
function classify(error: unknown): WebpayCall<never> {
  const text = error instanceof Error ? error.message : String(error);
  const status = /status code (\d{3})/.exec(text)?.[1];
  const message = text.split('\n').slice(1).join(' ').trim() || text;
  if (status && Number(status) >= 400 && Number(status) < 500) return { ok: false, kind: 'refused', status: Number(status), message };
  return { ok: false, kind: 'unavailable', message };
}

// The SDK's timeout (axios's) counts connecting and then silence on the socket: a partition that drops every packet
// trips it, but an answer trickling in a few bytes at a time would not. This one counts the whole call; the margin
// lets the SDK's own timeout answer first whenever it can.
const DEADLINE_MARGIN_MS = 1_000;

async function bounded<T>(run: () => Promise<T>, timeoutMs: number): Promise<WebpayCall<T>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Webpay within ${timeoutMs + DEADLINE_MARGIN_MS} ms`)), timeoutMs + DEADLINE_MARGIN_MS);
  });
  try {
    return { ok: true, data: await Promise.race([run(), deadline]) };
  } catch (error) {
    return classify(error);
  } finally {
    clearTimeout(timer);
  }
}

/** The real SDK's Mall transaction, pointed at WEBPAY_BASE_URL with a timeout of seconds, not the SDK's 10 minutes. */
export function createWebpayClient(options: { baseUrl: string; commerceCode: string; apiKey: string; timeoutMs: number }): WebpayClient {
  const mall = () => new tb.WebpayPlus.MallTransaction(new tb.Options(options.commerceCode, options.apiKey, options.baseUrl, options.timeoutMs));
  const call = <T>(run: () => Promise<T>) => bounded(run, options.timeoutMs);
  return {
    create: (buyOrder, sessionId, returnUrl, stores) =>
      call(() => mall().create(buyOrder, sessionId, returnUrl, stores.map((s) => new tb.TransactionDetail(s.amount, s.commerceCode, s.buyOrder)))),
    commit: (token) => call(() => mall().commit(token) as Promise<WebpayResult>),
    status: (token) => call(() => mall().status(token) as Promise<WebpayResult>),
    refund: (token, buyOrder, commerceCode, amount) => call(() => mall().refund(token, buyOrder, commerceCode, amount)),
  };
}

/** Approved means response_code 0 and status AUTHORIZED, store by store (a Mall payment can be partly approved). */
export const isApproved = (d: WebpayDetail) => d.response_code === 0 && d.status === 'AUTHORIZED';

/** What Webpay still holds of an approved store: its balance once partly refunded, else its whole amount. */
export const heldOf = (d: WebpayDetail) => (d.balance !== undefined && d.balance > 0 && d.balance < d.amount ? d.balance : d.amount);

/**
 * Why Webpay refused a refund, in the words staff read (Transbank's refund rules: 'Anulaciones y Reversas'). Webpay's
 * own message is English and is kept apart, in the audit trail.
 */
export function refundRefusalText(message: string): string {
  if (/bigger than authorized|above balance|balance/i.test(message)) return 'Webpay rechazó la devolución: el monto supera lo que queda por devolver del cobro';
  if (/already fully refunded|already nullified|nullified/i.test(message)) return 'Webpay rechazó la devolución: el cobro ya fue devuelto por completo';
  if (/period|90 days|max time/i.test(message)) return 'Webpay rechazó la devolución: pasó el plazo de 90 días para anular el cobro';
  if (/partial/i.test(message)) return 'Webpay rechazó la devolución: esta tarjeta no admite devoluciones parciales';
  if (/not found|invalid value/i.test(message)) return 'Webpay rechazó la devolución: no reconoce la orden de compra';
  return 'Webpay rechazó la devolución sin un motivo reconocido';
}
