import { santiagoParts } from '@pago/domain/business-time';
import { CHANNEL_KEY, isLoanInCore, type CoreAnswer, type CoreBanking, type CoreCall, type CoreLine, type CoreOperationView } from './core-banking';

export interface FineractOptions {
  /** Up to and including `/api`, e.g. https://core.example.cl/fineract-provider/api. */
  baseUrl: string;
  username: string;
  password: string;
  tenant: string;
  timeoutMs: number;
  /** The core's payment type for money Webpay took (Fineract's `paymentTypeId`). */
  webpayPaymentTypeId: number;
  /** The core's payment type of an own-account payment's debit and credits when they go as a batch. */
  transferPaymentTypeId: number;
}

/** Fineract answers errors as {httpStatusCode, errors: [{userMessageGlobalisationCode, …}]}. */
interface FineractError {
  httpStatusCode?: number;
  userMessageGlobalisationCode?: string;
  developerMessage?: string;
  errors?: { userMessageGlobalisationCode?: string; parameterName?: string }[];
}

/** What came back: `status` 0 when nothing did (a timeout, a refused or dropped connection). */
type Answer = { status: number; body: unknown; fromCache: boolean; error?: undefined } | { status: 0; body?: undefined; error: string };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DATE_FORMAT = { locale: 'en', dateFormat: 'dd MMMM yyyy' } as const;
const INSUFFICIENT = /insufficient.account.balance/;
const CHANNEL_DESCRIPTION = /^Pago Online (\S+)$/;

/** The business day in Fineract's body format, e.g. "27 November 2026". */
export function fineractDate(instant: Date): string {
  const p = santiagoParts(instant);
  return `${String(p.day).padStart(2, '0')} ${MONTHS[p.month - 1]} ${p.year}`;
}

const isLoan = (line: CoreLine) => isLoanInCore(line.family);

/** The port over Apache Fineract's REST API (1.9+): Basic auth, the tenant header, an Idempotency-Key on every write. */
export function createFineractClient(options: FineractOptions): CoreBanking {
  const auth = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  // Fineract's ids never change for an external id: asked once per process.
  const ids = new Map<string, { id: number; clientId: number; officeId: number }>();

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, key?: string): Promise<Answer> {
    try {
      const res = await fetch(`${options.baseUrl}/v1/${path}`, {
        method,
        headers: {
          authorization: auth,
          'fineract-platform-tenantid': options.tenant,
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(key && { 'idempotency-key': key }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      return { status: res.status, body: parsed, fromCache: res.headers.get('x-served-from-cache') === 'true' };
    } catch (error) {
      return { status: 0, error: error instanceof Error ? error.message : String(error) };
    }
  }

  const detailOf = (answer: Answer) => (answer.error !== undefined ? answer.error : `HTTP ${answer.status} ${codesOf(answer.body).join(' ')}`.trim());

  /** The account's ids, by its external id (our product or account number). */
  async function resolve(kind: 'savingsaccounts' | 'loans', externalId: string): Promise<CoreCall<{ id: number; clientId: number; officeId: number }>> {
    const cacheKey = `${kind}:${externalId}`;
    const known = ids.get(cacheKey);
    if (known) return { ok: true, data: known };
    const account = await call('GET', `${kind}/external-id/${encodeURIComponent(externalId)}`);
    if (account.status !== 200) return { ok: false, detail: `${kind} ${detailOf(account)}` };
    const a = account.body as { id: number; clientId: number; clientOfficeId?: number; officeId?: number };
    let officeId = a.clientOfficeId ?? a.officeId;
    if (officeId === undefined) {
      const client = await call('GET', `clients/${a.clientId}`);
      if (client.status !== 200) return { ok: false, detail: `client ${detailOf(client)}` };
      officeId = (client.body as { officeId: number }).officeId;
    }
    const data = { id: a.id, clientId: a.clientId, officeId };
    ids.set(cacheKey, data);
    return { ok: true, data };
  }

  /**
   * What an answer to a write means. Fineract keeps every command's outcome under its Idempotency-Key, failures
   * included, and answers a repeat with it (`x-served-from-cache: true`; SynchronousCommandProcessingService,
   * IdempotentCommandExceptionMapper): a 5xx or 409 served from that record is a failure the core keeps, so the key
   * will never book (failed). A first 5xx or 409 may come from outside that record (a gateway, a failure before the
   * command ran): the repeat under the same key tells which. 425 is the same key still running.
   */
  function outcomeOf(answer: Answer, refs: () => Record<string, string>): CoreAnswer {
    if (answer.status === 200) return { outcome: 'booked', refs: refs() };
    const failure = answer.status >= 500 || answer.status === 409;
    if (failure && answer.error === undefined && answer.fromCache) return { outcome: 'failed', detail: detailOf(answer) };
    if (answer.status === 0 || failure || answer.status === 425 || answer.status === 401 || answer.status === 429) {
      return { outcome: 'unknown', detail: detailOf(answer) };
    }
    const codes = codesOf(answer.body);
    return { outcome: 'refused', reason: codes.some((c) => INSUFFICIENT.test(c)) ? 'insufficient_funds' : 'refused', detail: detailOf(answer) };
  }

  function transferBody(from: { id: number; clientId: number; officeId: number }, to: { id: number; clientId: number; officeId: number }, line: CoreLine, date: Date, key: string) {
    return {
      fromOfficeId: from.officeId,
      fromClientId: from.clientId,
      fromAccountType: 2,
      fromAccountId: from.id,
      toOfficeId: to.officeId,
      toClientId: to.clientId,
      toAccountType: isLoan(line) ? 1 : 2,
      toAccountId: to.id,
      transferDate: fineractDate(date),
      transferAmount: line.amount,
      transferDescription: `Pago Online ${key}`,
      ...DATE_FORMAT,
    };
  }

  const target = (line: CoreLine) => resolve(isLoan(line) ? 'loans' : 'savingsaccounts', line.numeroProducto);

  /**
   * Undoes the loan repayment or savings transaction our write `receipt` booked on an account, under `key`: a loan's
   * by its external id (LoanWritePlatformServiceJpaRepositoryImpl.adjustLoanTransaction, transactionAmount 0), a
   * savings account's by its receipt number (SavingsAccountWritePlatformServiceJpaRepositoryImpl.undoTransaction).
   * One already reversed is booked: an earlier try of this reversal undid it under a key the core no longer keeps.
   */
  async function undo(kind: 'loans' | 'savingsaccounts', externalId: string, receipt: string, key: string, date: Date): Promise<CoreAnswer> {
    const account = await resolve(kind, externalId);
    if (!account.ok) return { outcome: 'unknown', detail: account.detail };
    let found: FineractTransaction & { id: number } | undefined;
    if (kind === 'loans') {
      const read = await call('GET', `loans/${account.data.id}/transactions/external-id/${encodeURIComponent(receipt)}`);
      if (read.status === 200) found = read.body as FineractTransaction & { id: number };
      else if (read.status !== 404) return { outcome: 'unknown', detail: detailOf(read) };
    } else {
      const read = await call('GET', `savingsaccounts/${account.data.id}?associations=transactions`);
      if (read.status !== 200) return { outcome: 'unknown', detail: detailOf(read) };
      const list = ((read.body as { transactions?: (FineractTransaction & { id: number })[] }).transactions ?? []);
      found = list.find((t) => t.paymentDetailData?.receiptNumber === receipt);
    }
    if (!found) return { outcome: 'refused', reason: 'refused', detail: `no transaction ${receipt} in the core` };
    if (found.reversed === true || found.manuallyReversed === true) return { outcome: 'booked', refs: { [externalId]: String(found.id) } };
    const answer =
      kind === 'loans'
        ? await call('POST', `loans/${account.data.id}/transactions/${found.id}`, { transactionDate: fineractDate(date), transactionAmount: 0, note: `Pago Online ${key}`, ...DATE_FORMAT }, key)
        : await call('POST', `savingsaccounts/${account.data.id}/transactions/${found.id}?command=undo`, {}, key);
    return outcomeOf(answer, () => ({ [externalId]: String(found.id) }));
  }

  return {
    async payFromAccount(key, payment) {
      // The ids are independent reads: asked together, they cost the core's latency once.
      const [from, tos] = await Promise.all([resolve('savingsaccounts', payment.numeroCuenta), Promise.all(payment.lines.map(target))]);
      if (!from.ok) return { outcome: 'unknown', detail: from.detail };
      const targets = [];
      for (const [i, to] of tos.entries()) {
        if (!to.ok) return { outcome: 'unknown', detail: to.detail };
        targets.push({ line: payment.lines[i]!, to: to.data });
      }
      if (targets.length === 1) {
        const { line, to } = targets[0]!;
        const answer = await call('POST', 'accounttransfers', transferBody(from.data, to, line, payment.date, key), key);
        return outcomeOf(answer, () => ({ [line.numeroProducto]: resourceIdOf(answer.body) }));
      }
      // Several products: Fineract's batches take no transfers, so the withdrawal and each credit go as one batch in
      // one core transaction (enclosingTransaction), all booked or none, each item keyed of its own.
      const date = fineractDate(payment.date);
      const total = payment.lines.reduce((sum, l) => sum + l.amount, 0);
      const withdrawal = { transactionDate: date, transactionAmount: total, paymentTypeId: options.transferPaymentTypeId, receiptNumber: key, note: `Pago Online ${key}`, ...DATE_FORMAT };
      const writes = [
        { relativeUrl: `savingsaccounts/${from.data.id}/transactions?command=withdrawal`, body: withdrawal },
        ...targets.map(({ line, to }, i) => {
          const credit = { transactionDate: date, transactionAmount: line.amount, paymentTypeId: options.transferPaymentTypeId, receiptNumber: `${key}.${i + 1}`, note: `Pago Online ${key}`, ...DATE_FORMAT };
          return isLoan(line)
            ? { relativeUrl: `loans/${to.id}/transactions?command=repayment`, body: { ...credit, externalId: `${key}.${i + 1}` } }
            : { relativeUrl: `savingsaccounts/${to.id}/transactions?command=deposit`, body: credit };
        }),
      ];
      const items = writes.map((w, i) => ({
        requestId: i + 1,
        relativeUrl: w.relativeUrl,
        method: 'POST',
        headers: [
          { name: 'Content-Type', value: 'application/json' },
          { name: 'Idempotency-Key', value: `${key}.${i}` },
        ],
        body: JSON.stringify(w.body),
      }));
      const answer = await call('POST', 'batches?enclosingTransaction=true', items);
      if (answer.status !== 200 || !Array.isArray(answer.body)) return outcomeOf(answer.status === 200 ? { status: 502, body: answer.body, fromCache: false } : answer, () => ({}));
      // A failed batch answers 200 with the failed item alone, under its own status.
      // Under enclosingTransaction Fineract rolls its record of a failed item back with the batch (it writes nothing
      // about the key until the batch commits): a failed item is never a failure the core keeps, and is asked again
      // under the same key. A served-from-cache header on it is the last item's, kept when a concurrent repeat of
      // this batch committed first and this one's commit met its rollback mark (BatchApiServiceImpl,
      // buildErrorResponses): the next ask is answered from those records.
      const results = answer.body as { requestId: number; statusCode: number; body?: string; headers?: { name?: string; value?: string }[] }[];
      const failed = results.find((r) => r.statusCode !== 200);
      if (failed) {
        const recorded = (failed.headers ?? []).some((h) => h.name?.toLowerCase() === 'x-served-from-cache' && h.value === 'true');
        const outcome = outcomeOf({ status: failed.statusCode, body: parseBody(failed.body), fromCache: false }, () => ({}));
        const rolledBack = outcome.outcome === 'unknown' && !recorded && (failed.statusCode >= 500 || failed.statusCode === 409);
        return rolledBack ? { ...outcome, rolledBack } : outcome;
      }
      if (results.length !== items.length) return { outcome: 'unknown', detail: `batch answered ${results.length} of ${items.length} items` };
      const refs: Record<string, string> = {};
      for (const r of results) {
        if (r.requestId < 2) continue;
        refs[targets[r.requestId - 2]!.line.numeroProducto] = resourceIdOf(parseBody(r.body));
      }
      return { outcome: 'booked', refs };
    },

    async credit(key, line, date) {
      const to = await target(line);
      if (!to.ok) return { outcome: 'unknown', detail: to.detail };
      const common = { transactionDate: fineractDate(date), transactionAmount: line.amount, paymentTypeId: options.webpayPaymentTypeId, receiptNumber: key, note: `Pago Online Webpay ${key}`, ...DATE_FORMAT };
      const answer = isLoan(line)
        ? await call('POST', `loans/${to.data.id}/transactions?command=repayment`, { ...common, externalId: key }, key)
        : await call('POST', `savingsaccounts/${to.data.id}/transactions?command=deposit`, common, key);
      // The loan already has a repayment with our key (booked under an idempotency record the core no longer has).
      if (answer.status === 400 && isLoan(line) && codesOf(answer.body).some((c) => /must.be.unique/.test(c))) {
        const found = await call('GET', `loans/${to.data.id}/transactions/external-id/${encodeURIComponent(key)}`);
        if (found.status === 200) return { outcome: 'booked', refs: { [line.numeroProducto]: String((found.body as { id: number }).id) } };
      }
      return outcomeOf(answer, () => ({ [line.numeroProducto]: resourceIdOf(answer.body) }));
    },

    async reverse(key, what) {
      if (what.kind === 'abono_webpay') return undo(isLoan(what.line) ? 'loans' : 'savingsaccounts', what.line.numeroProducto, what.originalKey, key, what.date);
      if (what.lines.length === 1) {
        const line = what.lines[0]!;
        // A transfer's legs cannot be undone (503, `…transfer.transaction.update.not.allowed`): a savings product's
        // transfer goes back by a transfer the other way; a loan's cannot (AccountTransfersWritePlatformServiceImpl:
        // a transfer from a loan only refunds an overpaid loan).
        if (isLoan(line)) return { outcome: 'refused', reason: 'refused', detail: 'error.msg.loan.transfer.transaction.update.not.allowed' };
        const [from, to] = await Promise.all([resolve('savingsaccounts', line.numeroProducto), resolve('savingsaccounts', what.numeroCuenta)]);
        if (!from.ok) return { outcome: 'unknown', detail: from.detail };
        if (!to.ok) return { outcome: 'unknown', detail: to.detail };
        const body = { ...transferBody(from.data, to.data, { ...line, family: 'AH' }, what.date, key), fromAccountType: 2, toAccountType: 2 };
        const answer = await call('POST', 'accounttransfers', body, key);
        return outcomeOf(answer, () => ({ [line.numeroProducto]: resourceIdOf(answer.body) }));
      }
      // A batch's items were a withdrawal and plain credits: each is undone, the credits first (an undo that would take
      // a product below zero is refused before the cuenta vista gets anything), each under its own key.
      const refs: Record<string, string> = {};
      for (const [i, line] of what.lines.entries()) {
        const done = await undo(isLoan(line) ? 'loans' : 'savingsaccounts', line.numeroProducto, `${what.originalKey}.${i + 1}`, `${key}.${i + 1}`, what.date);
        if (done.outcome !== 'booked') return done;
        Object.assign(refs, done.refs);
      }
      const debit = await undo('savingsaccounts', what.numeroCuenta, what.originalKey, `${key}.0`, what.date);
      return debit.outcome === 'booked' ? { outcome: 'booked', refs: { ...refs, ...debit.refs } } : debit;
    },

    async channelOperations(accounts) {
      const ours = new Set([options.webpayPaymentTypeId, options.transferPaymentTypeId]);
      const found: CoreOperationView[] = [];
      for (const account of accounts) {
        const kind = account.loan ? 'loans' : 'savingsaccounts';
        const answer = await call('GET', `${kind}/external-id/${encodeURIComponent(account.numero)}?associations=transactions`);
        if (answer.status === 404) continue;
        if (answer.status !== 200) return { ok: false, detail: `${kind} ${detailOf(answer)}` };
        const transactions = (answer.body as { transactions?: FineractTransaction[] }).transactions ?? [];
        for (const t of transactions) {
          const key = channelKeyOf(t, ours);
          if (!key || !Array.isArray(t.date)) continue;
          const [y, m, d] = t.date;
          const withdrawal = t.transactionType?.withdrawal === true;
          found.push({
            key,
            date: `${y}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`,
            account: account.numero,
            direction: withdrawal ? 'debit' : 'credit',
            amount: t.amount,
            reversed: t.reversed === true || t.manuallyReversed === true,
          });
        }
      }
      return { ok: true, data: found };
    },

    async missingPaymentTypes() {
      const answer = await call('GET', 'paymenttypes');
      if (answer.status !== 200 || !Array.isArray(answer.body)) return { ok: false, detail: `paymenttypes ${detailOf(answer)}` };
      const present = new Set((answer.body as { id?: number }[]).map((t) => t.id));
      const configured = [
        ['CORE_WEBPAY_PAYMENT_TYPE_ID', options.webpayPaymentTypeId],
        ['CORE_TRANSFER_PAYMENT_TYPE_ID', options.transferPaymentTypeId],
      ] as const;
      return { ok: true, data: configured.filter(([, id]) => !present.has(id)).map(([name, id]) => `${name}=${id}`) };
    },
  };
}

/** A savings or loan transaction as Fineract lists it, with what can carry our key. */
interface FineractTransaction {
  amount: number;
  /** [year, month, day] */
  date?: [number, number, number];
  reversed?: boolean;
  manuallyReversed?: boolean;
  externalId?: string;
  transactionType?: { withdrawal?: boolean; deposit?: boolean };
  paymentDetailData?: { receiptNumber?: string; paymentType?: { id?: number } };
  transfer?: { transferDescription?: string };
}

/**
 * Our key on a core transaction, or null when another channel booked it: a transfer described `Pago Online {key}`
 * (an own-account payment of one product), or a receipt number or loan external id under one of our payment types.
 * Only keys of our format count: a teller's receipt or an external id Fineract generated is never ours.
 */
function channelKeyOf(t: FineractTransaction, ours: ReadonlySet<number>): string | null {
  const described = CHANNEL_DESCRIPTION.exec(t.transfer?.transferDescription ?? '')?.[1];
  const typed = ours.has(t.paymentDetailData?.paymentType?.id ?? -1) ? (t.paymentDetailData?.receiptNumber ?? t.externalId) : undefined;
  // A batch's items are keyed `{key}.{n}`: they belong to the operation `key`.
  const key = (described ?? typed)?.replace(/\.\d+$/, '');
  return key && CHANNEL_KEY.test(key) ? key : null;
}

/** The id Fineract gives what a write booked (`resourceId`), or '' when the answer has none. */
function resourceIdOf(body: unknown): string {
  return String((body as { resourceId?: number } | null)?.resourceId ?? '');
}

function parseBody(body: string | undefined): unknown {
  try {
    return body ? JSON.parse(body) : null;
  } catch {
    return null;
  }
}

/** Fineract's error codes of an answer, the top-level one and each of errors[]. */
function codesOf(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const e = body as FineractError;
  return [e.userMessageGlobalisationCode, ...(e.errors ?? []).map((x) => x.userMessageGlobalisationCode)].filter((c): c is string => typeof c === 'string');
}
