import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { businessToday } from '@pago/domain/business-time';
import { conflict, domainRuleViolation, FineractError, notFound, parameterError, parseJavaDate, serverError, serviceUnavailable, validationError, type Json } from './fineract';
import * as ledger from './ledger';
import { DEMO_MEMBERS, type DemoMember } from '@pago/domain/demo-members';
import { loadBooks, planOutstanding, saveBooks, savingsBalance, seedBooks, statementOwed, type Books, type IdempotencyRecord } from './store';
import { booksPage } from './page';

export const BASE = '/fineract-provider/api/v1';

export interface CoreSimOptions {
  username: string;
  password: string;
  tenant: string;
  /** Pins the business date (yyyymmdd or yyyy-mm-dd); the real date in Santiago otherwise. */
  today?: string;
  /** Where the whole state is kept between runs; in memory when unset. */
  dataFile?: string;
  logger?: boolean;
  /** Members to seed besides the demo members (load tests), in the demo members' shape. */
  members?: readonly DemoMember[];
  /**
   * The tenant's working days (ISO weekdays, 1 = Monday) and holidays (yyyymmdd), with transactions not allowed on
   * the others: a loan repayment dated on one is refused as Fineract refuses it. Unset: every day is a working day.
   */
  calendar?: { workingWeekdays: readonly number[]; holidays: readonly string[] };
  /** The pauses of Fineract's retry of a command whose key is still running, before it answers 425 (1 s, 2 s). */
  retryWaitsMs?: readonly number[];
  /** The core's payment types (GET /paymenttypes); a write naming another answers 404 as Fineract does. */
  paymentTypes?: readonly { id: number; name: string }[];
}

/** The payment types the API's defaults name (CORE_WEBPAY_PAYMENT_TYPE_ID 1, CORE_TRANSFER_PAYMENT_TYPE_ID 2), and the tellers'. */
export const DEFAULT_PAYMENT_TYPES = [
  { id: 1, name: 'Webpay' },
  { id: 2, name: 'Transferencia Pago Online' },
  { id: 3, name: 'Caja' },
] as const;

/** Fineract's m_portfolio_command_source.idempotency_key is VARCHAR(50) (0061_add_idempotency_key_to_command_source.xml). */
export const MAX_KEY_LENGTH = 50;

export const DEFAULT_CORE_SIM_OPTIONS: CoreSimOptions = { username: 'mifos', password: 'password', tenant: 'default' };

export interface Faults {
  latencyMs: number;
  /** The next N commands fail inside Fineract (500): nothing applied, the failure recorded under the key. */
  failNext: number;
  loseNext: number;
  /** The next N writes meet a core that is down (503 from before Fineract): nothing applied or recorded. */
  unavailableNext: number;
  /**
   * The next N commands meet a concurrent write of their account on every attempt of Fineract's retry: 409 after the
   * retry's waits, nothing applied, the 409 recorded under the key.
   */
  conflictNext: number;
}

const NO_FAULTS: Faults = { latencyMs: 0, failNext: 0, loseNext: 0, unavailableNext: 0, conflictNext: 0 };

interface WriteAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spring Boot's error body: what Fineract's servlet filters send for a refused tenant or credentials. */
const springError = (status: number, error: string, path: string) => ({ timestamp: new Date().toISOString(), status, error, path });

/** A Fineract write the simulator plays: the command's action and entity (its idempotency scope) and what it does. */
interface WriteRoute {
  scope: string;
  /** The accounts the command writes (`S:id`, `L:id`): what Fineract's row locks and @Version guard. */
  accounts: (books: Books, body: unknown) => string[];
  run: (books: Books, body: unknown) => Json;
  /** The command takes a payment detail (`paymentTypeId`), checked against the core's payment types. */
  paymentDetail?: boolean;
}

/** A transfer writes both its accounts. */
function transferAccounts(_books: Books, body: unknown): string[] {
  const json = (body ?? {}) as Json;
  const ref = (type: unknown, id: unknown) => `${Number(type) === 1 ? 'L' : 'S'}:${Number(id)}`;
  return [ref(json.fromAccountType, json.fromAccountId), ref(json.toAccountType, json.toAccountId)];
}

/** Finds the write for a path relative to /v1 (also how batch items name it) and its query. */
function matchWrite(method: string, path: string, query: URLSearchParams, inBatch = false): WriteRoute | null {
  if (method !== 'POST') return null;
  const command = query.get('command') ?? '';
  let m: RegExpMatchArray | null;
  // Fineract's CommandStrategyProvider has no strategy for account transfers: inside a batch they are unknown (501).
  if (path === 'accounttransfers' && !inBatch) return { scope: 'CREATE:ACCOUNTTRANSFER', accounts: transferAccounts, run: (b, body) => ledger.createTransfer(b, body) };
  if ((m = path.match(/^savingsaccounts\/(\d+)\/transactions$/)) && (command === 'deposit' || command === 'withdrawal')) {
    const id = Number(m[1]);
    return { scope: `${command.toUpperCase()}:SAVINGSACCOUNT`, accounts: () => [`S:${id}`], paymentDetail: true, run: (b, body) => ledger.savingsTransaction(b, id, command, body) };
  }
  if ((m = path.match(/^savingsaccounts\/(\d+)\/transactions\/(\d+)$/)) && command === 'undo') {
    const [id, tx] = [Number(m[1]), Number(m[2])];
    return { scope: 'UNDOTRANSACTION:SAVINGSACCOUNT', accounts: () => [`S:${id}`], run: (b) => ledger.undoSavingsTransaction(b, id, tx) };
  }
  if ((m = path.match(/^loans\/(\d+)\/transactions$/)) && command === 'repayment') {
    const id = Number(m[1]);
    return { scope: 'REPAYMENT:LOAN', accounts: () => [`L:${id}`], paymentDetail: true, run: (b, body) => ledger.loanRepayment(b, ledger.loanById(b, id), body) };
  }
  if ((m = path.match(/^loans\/external-id\/([\w-]+)\/transactions$/)) && command === 'repayment') {
    const ext = m[1]!;
    const accounts = (b: Books) => b.loans.filter((l) => l.externalId === ext).map((l) => `L:${l.id}`);
    return { scope: 'REPAYMENT:LOAN', accounts, paymentDetail: true, run: (b, body) => ledger.loanRepayment(b, ledger.loanByExternalId(b, ext), body) };
  }
  if ((m = path.match(/^loans\/(\d+)\/transactions\/(\d+)$/)) && command === '') {
    const [id, tx] = [Number(m[1]), Number(m[2])];
    return { scope: 'ADJUST:LOAN', accounts: () => [`L:${id}`], run: (b, body) => ledger.adjustLoanTransaction(b, id, tx, body) };
  }
  return null;
}

/**
 * Plays the cooperative's core banking system through the subset of Apache Fineract's REST API (1.9+) the product
 * uses, seeded with the demo members. Never for production.
 */
export function buildCoreSim(partial: Partial<CoreSimOptions> = {}): FastifyInstance {
  const options = { ...DEFAULT_CORE_SIM_OPTIONS, ...partial };
  const today = () => (options.today ? options.today.replaceAll('-', '') : businessToday(new Date()));
  let books: Books = (options.dataFile && loadBooks(options.dataFile)) || seedBooks(today(), [...DEMO_MEMBERS, ...(options.members ?? [])]);
  const faults: Faults = { ...NO_FAULTS };
  /**
   * Enclosing batches not yet committed and the accounts they wrote: Fineract's rows stay locked until the batch's
   * transaction ends, and its key records are written in that transaction, so no one else sees them before.
   */
  const openBatches = new Set<{ accounts: Set<string>; ended: Promise<'committed'> }>();
  const openOn = (accounts: readonly string[]) => [...openBatches].filter((b) => accounts.some((a) => b.accounts.has(a)));
  const paymentTypes = options.paymentTypes ?? DEFAULT_PAYMENT_TYPES;
  const retryWaitsMs = options.retryWaitsMs ?? [1_000, 2_000];
  /**
   * PaymentDetailWritePlatformServiceJpaRepositoryImpl.createPaymentDetail looks the type up with not-found
   * detection: PaymentTypeNotFoundException, 404 `error.msg.payment.type.invalid`.
   */
  /**
   * No transaction dated after the core's business day: savings (and a transfer's withdrawal) answer 400
   * `error.msg.savingsaccount.transaction.in.the.future` (SavingsAccount.java, the deposit and withdrawal checks); loans 403 `error.msg.loan.transaction.cannot.be.a.future.date`
   * (LoanTransactionValidator.validateTransactionShouldNotBeInTheFuture). A date that does not parse is left to the
   * command's own validation.
   */
  const checkNotInTheFuture = (route: WriteRoute, body: unknown) => {
    const json = (body ?? {}) as Json;
    const value = json.transactionDate ?? json.transferDate;
    if (typeof value !== 'string' || typeof json.dateFormat !== 'string' || typeof json.locale !== 'string') return;
    const wire = parseJavaDate(value, json.dateFormat, json.locale);
    if (!wire || wire <= today()) return;
    if (route.scope.endsWith(':LOAN')) throw domainRuleViolation('error.msg.loan.transaction.cannot.be.a.future.date', 'The transaction date cannot be in the future.', [value]);
    throw validationError([parameterError('error.msg.savingsaccount.transaction.in.the.future', 'Transaction date cannot be in the future.', 'transactionDate', value)]);
  };
  /**
   * Loan.validateRepaymentDateIsOnNonWorkingDay and validateRepaymentDateIsOnHoliday (LoanApplicationDateException,
   * 403 `error.msg.loan.application.repayment.date.on.non.working.day` / `…on.holiday`) when the tenant's settings
   * do not allow transactions on them. Savings transactions are not checked by Fineract.
   */
  const checkWorkingDay = (route: WriteRoute, body: unknown) => {
    if (!options.calendar || route.scope !== 'REPAYMENT:LOAN') return;
    const json = (body ?? {}) as Json;
    if (typeof json.transactionDate !== 'string' || typeof json.dateFormat !== 'string' || typeof json.locale !== 'string') return;
    const wire = parseJavaDate(json.transactionDate, json.dateFormat, json.locale);
    if (!wire) return;
    const weekday = new Date(Date.UTC(Number(wire.slice(0, 4)), Number(wire.slice(4, 6)) - 1, Number(wire.slice(6, 8)))).getUTCDay() || 7;
    if (!options.calendar.workingWeekdays.includes(weekday)) {
      throw domainRuleViolation('error.msg.loan.application.repayment.date.on.non.working.day', 'Repayment date cannot be on a non working day', [json.transactionDate]);
    }
    if (options.calendar.holidays.includes(wire)) throw domainRuleViolation('error.msg.loan.application.repayment.date.on.holiday', 'Repayment date cannot be on a holiday', [json.transactionDate]);
  };
  const checkPaymentType = (body: unknown) => {
    const id = (body as { paymentTypeId?: unknown } | null)?.paymentTypeId;
    if (id === undefined || id === null) return;
    if (!paymentTypes.some((t) => t.id === Number(id))) throw notFound('error.msg.payment.type.invalid', `PaymentType with ${String(id)} does not exist`, Number(id));
  };
  // Nothing is kept while a batch's transaction is open: its writes and key records are saved together at its commit.
  const persist = () => {
    if (options.dataFile && openBatches.size === 0) saveBooks(options.dataFile, books);
  };
  persist();

  // A closing simulator drops every connection, as a core that stops does: nothing waits on a client's keep-alive.
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 256 * 1024, forceCloseConnections: true });

  // Basic auth and the tenant header guard every Fineract route; the tenant is checked first, as Fineract's filter does.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${BASE}/`)) return;
    const path = request.url.split('?')[0]!;
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const header = request.headers['fineract-platform-tenantid'];
    const tenant = (typeof header === 'string' && header.trim() !== '' ? header : null) ?? query.get('tenantIdentifier');
    if (tenant === null || tenant !== options.tenant) {
      return reply.code(400).header('www-authenticate', 'Basic realm="Fineract Platform API"').send(springError(400, 'Bad Request', path));
    }
    const auth = request.headers.authorization ?? '';
    const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    const expected = `${options.username}:${options.password}`;
    if (!sameText(decoded, expected)) {
      return reply.code(401).header('www-authenticate', 'Basic realm="Fineract Platform API"').send(springError(401, 'Unauthorized', path));
    }
    if (faults.latencyMs > 0 && request.method === 'GET') await sleep(faults.latencyMs);
  });

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof FineractError) return reply.code(error.status).send(error.body);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 400) {
      return reply.code(400).send({ developerMessage: 'The request was invalid.', httpStatusCode: '400', defaultUserMessage: 'Invalid JSON.', userMessageGlobalisationCode: 'error.msg.invalid.json', errors: [] });
    }
    const failure = serverError(String((error as Error).message));
    return reply.code(500).send(failure.body);
  });

  // ---- Reads

  app.get(`${BASE}/clients/external-id/:externalId`, async (request) => ledger.clientView(books, (request.params as { externalId: string }).externalId));
  app.get(`${BASE}/clients/:clientId`, async (request) => ledger.clientView(books, Number((request.params as { clientId: string }).clientId)));
  app.get(`${BASE}/clients/:clientId/accounts`, async (request) => ledger.clientAccounts(books, Number((request.params as { clientId: string }).clientId)));
  const associations = (query: unknown) => String((query as { associations?: string }).associations ?? '').split(',').map((s) => s.trim());
  app.get(`${BASE}/savingsaccounts/:id`, async (request) => {
    const account = ledger.savingsById(books, Number((request.params as { id: string }).id));
    return ledger.savingsView(books, account, associations(request.query).includes('transactions'));
  });
  app.get(`${BASE}/savingsaccounts/external-id/:externalId`, async (request) => {
    const account = ledger.savingsByExternalId(books, (request.params as { externalId: string }).externalId);
    return ledger.savingsView(books, account, associations(request.query).includes('transactions'));
  });
  app.get(`${BASE}/loans/:id`, async (request) => ledger.loanView(books, ledger.loanById(books, Number((request.params as { id: string }).id)), associations(request.query)));
  app.get(`${BASE}/loans/external-id/:externalId`, async (request) =>
    ledger.loanView(books, ledger.loanByExternalId(books, (request.params as { externalId: string }).externalId), associations(request.query)),
  );
  app.get(`${BASE}/loans/:loanId/transactions/external-id/:externalId`, async (request) => {
    const { loanId, externalId } = request.params as { loanId: string; externalId: string };
    return ledger.loanTransactionByExternalId(books, Number(loanId), externalId);
  });
  app.get(`${BASE}/accounttransfers/:id`, async (request) => ledger.transferView(books, Number((request.params as { id: string }).id)));
  // PaymentTypeApiResource.getAllPaymentTypes: id, name, description, isCashPayment, position.
  app.get(`${BASE}/paymenttypes`, async () => paymentTypes.map((t, i) => ({ id: t.id, name: t.name, description: t.name, isCashPayment: false, position: i + 1 })));

  // ---- Writes

  /**
   * One command, as Fineract's command pipeline runs it: a repeat of a key (per action and entity) answers the
   * stored outcome; a new one is marked running, then applied, or refused with the books unchanged.
   * Inside an enclosing batch a failure is not recorded (Fineract rolls its record back with the batch).
   */
  async function runCommand(route: WriteRoute, body: unknown, key: string | null, path: string, enclosing: boolean): Promise<WriteAnswer> {
    const record = key ? books.idempotency.find((r) => r.scope === route.scope && r.key === key) : undefined;
    if (record) {
      const cached = { 'x-served-from-cache': 'true' };
      // executeCommand is retried by resilience4j on IdempotentCommandProcessUnderProcessingException (3 attempts,
      // 1 s doubling: application.properties, resilience4j.retry.instances.executeCommand): a repeat waits for the
      // first, and answers 425 only when it is still running after that.
      for (const wait of retryWaitsMs) {
        if (record.state !== 'running') break;
        await sleep(wait);
      }
      if (record.state === 'running') return { status: 425, body: record.request, headers: cached };
      return { status: record.statusCode, body: record.body, headers: cached };
    }
    let running: IdempotencyRecord | undefined;
    if (key) {
      running = { scope: route.scope, key, state: 'running', statusCode: 0, body: null, request: body, path, at: new Date().toISOString() };
      books.idempotency.push(running);
    }
    if (faults.latencyMs > 0 && !enclosing) await sleep(faults.latencyMs);
    // Every command checks everything before it changes anything (ledger.ts), so a failed one leaves the books as
    // they were; a batch keeps a copy of its own to roll back (runBatch). A failure is recorded under the key and
    // answered to every repeat (SynchronousCommandProcessingService.executeCommand, saveResultNewTransaction), the
    // failNext fault's too.
    try {
      if (faults.failNext > 0) {
        faults.failNext--;
        throw serverError('Simulated failure: nothing was applied.');
      }
      if (faults.conflictNext > 0) {
        faults.conflictNext--;
        // Each attempt of executeCommand's retry meets the concurrent write (OptimisticLockException, in its
        // retryExceptions); after the last one the fallback answers it: 409 (OptimisticLockExceptionMapper). Inside an
        // enclosing batch the transaction is already marked for rollback: no wait changes the outcome.
        if (!enclosing) for (const wait of retryWaitsMs) await sleep(wait);
        throw conflict();
      }
      checkNotInTheFuture(route, body);
      checkWorkingDay(route, body);
      if (route.paymentDetail) checkPaymentType(body);
      const result = route.run(books, body);
      if (running) Object.assign(running, { state: 'done', statusCode: 200, body: result });
      return { status: 200, body: result, headers: {} };
    } catch (error) {
      const failure = error instanceof FineractError ? error : serverError(String((error as Error).message));
      if (running) {
        if (enclosing) books.idempotency = books.idempotency.filter((r) => r !== running);
        else Object.assign(running, { state: 'failed', statusCode: failure.status, body: failure.body });
      }
      return { status: failure.status, body: failure.body, headers: {} };
    }
  }

  function logWrite(method: string, path: string, key: string | null, statusCode: number, note?: string) {
    books.writes.push({ at: new Date().toISOString(), method, path, idempotencyKey: key, statusCode, ...(note ? { note } : {}) });
  }

  /** Fault switches shared by single writes and batches: unavailableNext before anything, loseNext after booking. */
  async function answerWrite(reply: FastifyReply, path: string, key: string | null, work: () => Promise<WriteAnswer>) {
    if (faults.unavailableNext > 0) {
      faults.unavailableNext--;
      return reply.code(503).send(serviceUnavailable('error.msg.platform.service.unavailable', 'Simulated outage: the core is down, nothing was applied.', null).body);
    }
    // The key is stored in a VARCHAR(50): a longer one fails its insert before the command runs (nothing recorded).
    if (key !== null && key.length > MAX_KEY_LENGTH) {
      return reply.code(500).send(serverError(`Idempotency key longer than ${MAX_KEY_LENGTH}: value too long for type character varying(${MAX_KEY_LENGTH})`).body);
    }
    const answer = await work();
    logWrite('POST', path, key, answer.status, answer.headers['x-served-from-cache'] ? 'served from cache' : undefined);
    persist();
    if (faults.loseNext > 0) {
      faults.loseNext--;
      reply.hijack();
      reply.raw.socket?.destroy();
      return reply;
    }
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  }

  app.post(`${BASE}/batches`, async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const enclosing = query.get('enclosingTransaction') === 'true';
    const items = request.body;
    if (!Array.isArray(items)) {
      throw new FineractError(400, { developerMessage: 'Batch body must be an array.', httpStatusCode: '400', defaultUserMessage: 'Invalid JSON.', userMessageGlobalisationCode: 'error.msg.invalid.json', errors: [] });
    }
    return answerWrite(reply, `${BASE}/batches${enclosing ? '?enclosingTransaction=true' : ''}`, null, () => runBatch(items as Json[], enclosing));
  });

  /**
   * BatchApiServiceImpl: items in requestId order. Under enclosingTransaction all run in one transaction: a failed item
   * rolls all back and only its answer is returned; the items' key records are written in that transaction
   * (executeCommand, saveResultSameTransaction), so no one sees them before the batch commits, and the rows it wrote
   * stay locked until then.
   */
  async function runBatch(items: Json[], enclosing: boolean): Promise<WriteAnswer> {
    const plan = [...items]
      .sort((a, b) => Number(a.requestId) - Number(b.requestId))
      .map((item) => {
        const headers = Array.isArray(item.headers) ? (item.headers as { name?: string; value?: string }[]) : [];
        // IdempotencyStoreBatchFilter finds the item's key by the header's exact name (equals, not ignoring case); an
        // item without it gets a generated key, so a repeat is a new command.
        const key = headers.find((h) => h.name === 'Idempotency-Key')?.value ?? null;
        const [rawPath, rawQuery] = String(item.relativeUrl ?? '').replace(/^\/?(v1\/)?/, '').split('?');
        const route = matchWrite(String(item.method ?? '').toUpperCase(), rawPath!, new URLSearchParams(rawQuery ?? ''), true);
        let body: unknown;
        try {
          body = typeof item.body === 'string' ? JSON.parse(item.body) : (item.body ?? {});
        } catch {
          body = null;
        }
        return { item, headers, key, route, body };
      });
    const accounts = enclosing ? plan.flatMap((p) => (p.route ? safeAccounts(p.route, p.body) : [])) : [];
    const blockers = openOn(accounts);
    if (blockers.length > 0) {
      // Another batch holds these rows (a concurrent repeat of the same payment, or another on the same account):
      // this one's first write waits for its commit, then fails the row's version check. executeCommand's retry
      // (1 s) finds the committed key record and answers it (200, served from cache), but the failure has already
      // marked the batch's transaction for rollback: its commit throws UnexpectedRollbackException, and
      // buildErrorResponses answers one item, 500 by DefaultExceptionMapper, with the last item's headers.
      await Promise.all(blockers.map((b) => b.ended));
      await sleep(retryWaitsMs[0] ?? 0);
      const last = plan[plan.length - 1]!;
      const recorded = last.route && last.key ? books.idempotency.some((r) => r.scope === last.route!.scope && r.key === last.key && r.state === 'done') : false;
      const headers = [...last.headers, ...(recorded ? [{ name: 'x-served-from-cache', value: 'true' }] : [])];
      const body = JSON.stringify({ Exception: 'Transaction silently rolled back because it has been marked as rollback-only' });
      return { status: 200, body: [{ requestId: last.item.requestId, statusCode: 500, headers, body }], headers: {} };
    }
    const snapshot = JSON.stringify(books);
    const recordsBefore = new Set(books.idempotency);
    const responses: Json[] = [];
    let failed = false;
    for (const { item, headers, key, route, body } of plan) {
      if (!route) {
        // UnknownCommandStrategy: a 501 answer (not an exception), so the other items still run before the rollback.
        responses.push({ requestId: item.requestId, statusCode: 501, body: `Resource with method ${String(item.method)} and relativeUrl ${String(item.relativeUrl)} doesn't exist` });
        failed = true;
        continue;
      }
      const answer = await runCommand(route, body, key, `${BASE}/${String(item.relativeUrl)}`, enclosing);
      const cacheHeader = answer.headers['x-served-from-cache'] ? [{ name: 'x-served-from-cache', value: 'true' }] : [];
      if (answer.status !== 200 && enclosing) {
        books = JSON.parse(snapshot) as Books;
        return { status: 200, body: [{ requestId: item.requestId, statusCode: answer.status, headers: [...headers, ...cacheHeader], body: JSON.stringify(answer.body) }], headers: {} };
      }
      responses.push({ requestId: item.requestId, statusCode: answer.status, headers: cacheHeader, body: JSON.stringify(answer.body) });
    }
    if (failed && enclosing) {
      books = JSON.parse(snapshot) as Books;
      return { status: 200, body: responses, headers: {} };
    }
    const mine = books.idempotency.filter((r) => !recordsBefore.has(r));
    if (enclosing && faults.latencyMs > 0 && mine.length > 0) {
      // The batch's transaction stays open for the core's latency, as a single write waits it once marked running:
      // its key records unseen, its rows locked. A batch answered from records alone wrote nothing and waits nothing.
      books.idempotency = books.idempotency.filter((r) => recordsBefore.has(r));
      let commit!: (outcome: 'committed') => void;
      const open = { accounts: new Set(accounts), ended: new Promise<'committed'>((resolve) => (commit = resolve)) };
      openBatches.add(open);
      await sleep(faults.latencyMs);
      books.idempotency.push(...mine);
      openBatches.delete(open);
      commit('committed');
    }
    return { status: 200, body: responses, headers: {} };
  }

  /** The accounts a write names; a body that names none (refused by the command itself) locks nothing. */
  function safeAccounts(route: WriteRoute, body: unknown): string[] {
    try {
      return route.accounts(books, body);
    } catch {
      return [];
    }
  }

  app.post(`${BASE}/*`, async (request, reply) => {
    const [fullPath, rawQuery] = request.url.split('?');
    const path = fullPath!.slice(BASE.length + 1);
    const route = matchWrite('POST', path, new URLSearchParams(rawQuery ?? ''));
    if (!route) {
      throw new FineractError(404, { developerMessage: 'The requested resource is not available.', httpStatusCode: '404', defaultUserMessage: 'The requested resource is not available.', userMessageGlobalisationCode: 'error.msg.resource.not.found', errors: [] });
    }
    const header = request.headers['idempotency-key'];
    const key = typeof header === 'string' && header !== '' ? header : null;
    return answerWrite(reply, request.url, key, async () => {
      // A write to a row an open batch holds waits for it (the row lock); the version check that then fails is
      // retried by executeCommand on the committed row, so the write runs after the batch.
      await Promise.all(openOn(safeAccounts(route, request.body)).map((b) => b.ended));
      return runCommand(route, request.body, key, request.url, false);
    });
  });

  // ---- The simulator's own routes: no auth, never Fineract's.

  app.get('/__sim/books', async () => simBooks());
  app.get('/__sim/extract', async () => ledger.extract(books));
  app.get('/__sim/faults', async () => faults);
  app.post('/__sim/faults', async (request, reply) => {
    const body = (request.body ?? {}) as Partial<Faults> & { reset?: boolean };
    if (body.reset) Object.assign(faults, NO_FAULTS);
    for (const name of Object.keys(NO_FAULTS) as (keyof Faults)[]) {
      const value = body[name];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return reply.code(400).send({ error: `${name} must be a whole number ≥ 0` });
      faults[name] = value;
    }
    return faults;
  });
  app.get('/health', async () => ({ status: 'ok', service: 'core-sim' }));
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(booksPage(simBooks())));

  function simBooks() {
    return {
      today: today(),
      clients: books.clients,
      savings: books.savings.map((s) => ({
        id: s.id,
        accountNo: s.accountNo,
        externalId: s.externalId,
        clientId: s.clientId,
        productName: s.productName,
        balance: savingsBalance(s),
        transactions: s.transactions,
        ...(s.plan ? { plan: s.plan.map((c, i) => ({ ...c, outstanding: planOutstanding(s)[i] })) } : {}),
        ...(s.statement ? { statement: { ...s.statement, owed: statementOwed(s) } } : {}),
      })),
      loans: books.loans.map((l) => {
        const view = ledger.loanView(books, l, ['repaymentSchedule']);
        return {
          id: l.id,
          externalId: l.externalId,
          clientId: l.clientId,
          productName: l.productName,
          totalOutstanding: (view.summary as { totalOutstanding: number }).totalOutstanding,
          periods: (view.repaymentSchedule as { periods: unknown[] }).periods,
          transactions: l.transactions,
        };
      }),
      transfers: books.transfers,
      idempotency: books.idempotency,
      writes: books.writes,
    };
  }

  return app;
}
