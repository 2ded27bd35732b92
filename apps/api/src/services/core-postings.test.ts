import { demoCoordinateCard } from '@pago/domain/demo-members';
import { buildSimulator } from '@pago/webpay-sim/app';
import { SimStore } from '@pago/webpay-sim/store';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { accounts, auditLog, coreOperations, instalments, members, products, transactions } from '../db/schema';
import { listProducts, oldest, postAutentica, postAutorizar, postConsultarPago, postPagar, postSeleccionar, productNumbered } from '../../test/support/member-calls';
import { anotherReplica, appPerTest, coreClientFor, DATABASE_KINDS, TEST_ADMIN_TOKEN, type CoreBooks } from '../../test/support/test-app';
import { CARD_CREDIT_TRIES, CORE_BATCH_TRIES, createCorePostings } from './core-postings';
import { fineractDate } from './fineract-client';
import { reconciliationCsv, type CoreReconciliation } from './core-reconciliation-service';
import { businessToday } from '@pago/domain/business-time';

const PAG = 'pagarProductoCVResponse';
const AUZ = 'autorizarPagoProductoCVResponse';
const VISA = '4051885600446623';

describe.each(DATABASE_KINDS)('payments booked in the core banking system on %s', (kind) => {
  let sim: FastifyInstance;
  let webpay: Config['webpay'];
  const store = new SimStore();
  beforeAll(async () => {
    sim = buildSimulator({ publicUrl: 'http://sim.test', store });
    const url = await sim.listen({ host: '127.0.0.1', port: 0 });
    webpay = { baseUrl: url, commerceCode: '597055555535', apiKey: '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C', timeoutMs: 5_000, settleAfterSeconds: 0, reconcileIntervalSeconds: 0 };
  });
  afterAll(async () => {
    await sim?.close();
  });
  // Each test on its own copy of the seeded members and a core simulator of its own.
  const t = appPerTest(kind, { config: { get webpay() { return webpay; } } as Partial<Config> });

  const localBalance = async (rut: string) =>
    (await t.database.db.select({ saldo: accounts.saldo }).from(accounts).innerJoin(members, eq(members.id, accounts.memberId)).where(eq(members.rut, rut)))[0]!.saldo;
  const localPending = async (numeroProducto: string) =>
    (await t.database.db
      .select({ cuota: instalments.numeroCuota })
      .from(instalments)
      .innerJoin(products, eq(products.id, instalments.productId))
      .where(and(eq(products.numeroProducto, numeroProducto), sql`${instalments.montoPendiente} > 0`))
      .orderBy(instalments.numeroCuota)).map((r) => r.cuota);
  const coreSavings = (books: CoreBooks, externalId: string) => books.savings.find((s) => s.externalId === externalId)!;
  const coreOutstanding = (books: CoreBooks, externalId: string) =>
    books.loans.find((l) => l.externalId === externalId)!.periods.filter((p) => p.totalOutstandingForPeriod > 0).map((p) => p.period);
  const bookedWrites = (books: CoreBooks, key: string) => books.writes.filter((w) => w.idempotencyKey === key && w.statusCode === 200 && w.note !== 'served from cache');
  const statusOf = async (idTransaccion: string) => (await t.database.db.select({ s: transactions.status }).from(transactions).where(eq(transactions.idTransaccion, idTransaccion)))[0]!.s;
  const opsOf = (idTransaccion: string) => t.database.db.select().from(coreOperations).where(eq(coreOperations.idTransaccion, idTransaccion));

  /** Lists, selects the oldest `count` instalments, logs in and answers the coordinates: ready for call 6. */
  async function readyToPay(rut: string, numeroProducto: string, count: number) {
    const { token, productos } = await listProducts(t.app, rut);
    const sel = await postSeleccionar(t.app, token, rut, [oldest(productNumbered(productos, numeroProducto), count)]);
    const { idTransaccion, montoTotal } = sel.json().seleccionarProductoResponse as { idTransaccion: string; montoTotal: number };
    const login = await postAutentica(t.app, token, rut, '1234');
    const numeroCuenta = login.json().autenticaConsultaFactoresResponse.numeroCuenta as string;
    const cells = (await postAutorizar(t.app, token, rut, rut, 1)).json()[AUZ].desafio.item as { valor: string }[];
    const card = demoCoordinateCard(rut);
    const valores = cells.map((c) => card[c.valor]!);
    const pay = () => postPagar(t.app, { token, rutTitular: rut, rutPago: rut, numeroCuenta, factor: 1, valores });
    return { token, idTransaccion, total: montoTotal, numeroCuenta, pay };
  }

  it('pays from the cuenta vista only once the core booked the debit, keyed by the transaction, and shows it in the core’s books', async () => {
    const before = coreSavings(await t.core.books(), '000031245601').balance;
    const { idTransaccion, total, pay } = await readyToPay('11111111-1', '630055667788', 1);
    const paid = await pay();
    expect(paid.json()[PAG].productoPagadoCV).toMatchObject({ idTransaccion, montoPagado: total });
    const books = await t.core.books();
    expect(coreSavings(books, '000031245601').balance).toBe(before - total);
    expect(coreOutstanding(books, '630055667788')).toEqual([10]);
    expect(bookedWrites(books, `${idTransaccion}-1`)).toHaveLength(1);
    // A repeated call 6 answers the voucher and asks nothing of the core.
    const writes = books.writes.length;
    expect((await pay()).json()[PAG].productoPagadoCV).toEqual(paid.json()[PAG].productoPagadoCV);
    expect((await t.core.books()).writes).toHaveLength(writes);
    expect(await opsOf(idTransaccion)).toMatchObject([{ status: 'booked', kind: 'cuenta_vista', amount: total }]);
  });

  it('pays two products of one selection in one batch, both or neither', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const sel = await postSeleccionar(t.app, token, '11111111-1', [oldest(productNumbered(productos, '410012345678'), 1), oldest(productNumbered(productos, '410087654321'), 1)]);
    const { idTransaccion, montoTotal } = sel.json().seleccionarProductoResponse as { idTransaccion: string; montoTotal: number };
    const numeroCuenta = (await postAutentica(t.app, token, '11111111-1', '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta as string;
    const cells = (await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1)).json()[AUZ].desafio.item as { valor: string }[];
    const card = demoCoordinateCard('11111111-1');
    const before = coreSavings(await t.core.books(), '000031245601').balance;
    const paid = await postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta, factor: 1, valores: cells.map((c) => card[c.valor]!) });
    expect(paid.json()[PAG].productoPagadoCV).toHaveLength(2);
    const books = await t.core.books();
    expect(coreSavings(books, '000031245601').balance).toBe(before - montoTotal);
    expect(coreOutstanding(books, '410012345678')).toEqual([22, 23, 24]);
    expect(coreOutstanding(books, '410087654321')).toEqual([12]);
    expect(await statusOf(idTransaccion)).toBe('paid');
  });

  it('leads to insufficient funds when the core says so, even when our copy of the balance would cover it', async () => {
    // Our copy is only a copy: here it says plenty, the core holds $1.000.
    await t.database.db.update(accounts).set({ saldo: 10_000_000 }).where(eq(accounts.numeroCuenta, '000031245606'));
    const { idTransaccion, pay } = await readyToPay('16789012-1', '410016789012', 1);
    const res = await pay();
    expect(res.json()[PAG].error.errores.detalleError.codigo).toBe('47203');
    expect(await statusOf(idTransaccion)).toBe('pending');
    // The same call again, and copies of it at once, answer the core's refusal again, never something else.
    const again = await Promise.all([pay(), pay()]);
    expect(again.map((r) => r.json()[PAG].error.errores.detalleError.codigo)).toEqual(['47203', '47203']);
    expect(await localPending('410016789012')).toEqual([4, 5, 6]);
    expect(await opsOf(idTransaccion)).toMatchObject([{ status: 'refused', lastError: 'insufficient_funds' }]);
    const books = await t.core.books();
    expect(coreSavings(books, '000031245606').balance).toBe(1_000);
    expect(coreOutstanding(books, '410016789012')).toEqual([4, 5, 6]);
  });

  it('asks again with the same key when the answer is lost after the core applied it: one debit, one voucher', async () => {
    const { idTransaccion, total, pay } = await readyToPay('11111111-1', '630055667788', 1);
    const before = coreSavings(await t.core.books(), '000031245601').balance;
    await t.core.faults({ loseNext: 1 });
    const paid = await pay();
    expect(paid.json()[PAG].productoPagadoCV).toMatchObject({ idTransaccion, montoPagado: total });
    const books = await t.core.books();
    expect(coreSavings(books, '000031245601').balance).toBe(before - total);
    expect(bookedWrites(books, `${idTransaccion}-1`)).toHaveLength(1);
    expect(await localBalance('11111111-1')).toBe(5_000_000 - total);
  });

  it('with the core down refuses with the general failure, keeps the debit pending, and books it once when the core returns', async () => {
    const { idTransaccion, total, pay } = await readyToPay('11111111-1', '630055667788', 1);
    await t.core.faults({ unavailableNext: 1_000 });
    const res = await pay();
    expect(res.json()[PAG].error.errores.detalleError.codigo).toBe('503');
    expect(await statusOf(idTransaccion)).toBe('posting');
    expect(await localPending('630055667788')).toEqual([9, 10]);
    // A second card or own-account start of the same instalment is refused while the debit is at the core.
    const again = await pay();
    expect(again.json()[PAG].error.errores.detalleError.codigo).toBe('503');

    await t.core.faults({ reset: true });
    // The member's next call 6 asks the core again with the same key and gets the voucher.
    const paid = await pay();
    expect(paid.json()[PAG].productoPagadoCV).toMatchObject({ idTransaccion, montoPagado: total });
    expect(await localPending('630055667788')).toEqual([10]);
    expect(bookedWrites(await t.core.books(), `${idTransaccion}-1`)).toHaveLength(1);
  });

  it('finishes a debit left without an answer in the background, with its voucher, when the member never comes back', async () => {
    const { idTransaccion, token: session, pay } = await readyToPay('11111111-1', '630055667788', 1);
    await t.core.faults({ unavailableNext: 1_000 });
    await pay();
    await t.core.faults({ reset: true });
    // The lease the call took has not passed: the job leaves the debit alone.
    expect(await t.app.services.corePostings.postDue()).toEqual({ booked: 0, refused: 0, unanswered: 0, failed: 0 });
    await t.database.db.update(coreOperations).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(coreOperations.idTransaccion, idTransaccion));
    expect(await t.app.services.corePostings.postDue()).toEqual({ booked: 1, refused: 0, unanswered: 0, failed: 0 });
    expect(await statusOf(idTransaccion)).toBe('paid');
    const voucher = (await postConsultarPago(t.app, session, idTransaccion)).json().consultarPagoResponse.listaPago.pago;
    expect(voucher).toMatchObject({ medioPago: 'CUENTA VISTA', idTransaccion });
    expect(bookedWrites(await t.core.books(), `${idTransaccion}-1`)).toHaveLength(1);
  });

  it('posts a card payment’s credit to the core through the outbox, once per store line, whoever delivers it', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const product = productNumbered(productos, '630055667788');
    const sel = (await postSeleccionar(t.app, token, '11111111-1', [oldest(product, 1)])).json().seleccionarProductoResponse;
    const auth = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${token}` }, payload: { idTransaction: sel.idTransaccion } });
    const init = await t.app.inject({
      method: 'POST',
      url: '/api/pagoexpress/initMall',
      headers: { authorization: `Bearer ${auth.json().token as string}` },
      payload: { sessionId: `${token}11111111-1`, transactionId: sel.idTransaccion, storesTransaction: [{ amount: sel.montoTotal, commerceCode: '597055555536', transactionId: product.numeroProducto }] },
    });
    const webpayToken = init.json().token as string;
    await sim.inject({ method: 'POST', url: '/webpayserver/pay', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token: webpayToken, card: VISA, expiry: '12/29', cvv: '123' }).toString() });
    await t.core.faults({ unavailableNext: 1 });
    const back = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/webpay/return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token_ws: webpayToken }).toString() });
    expect(back.headers.location).toContain('estado=aprobado');
    const [op] = await opsOf(sel.idTransaccion);
    expect(op).toMatchObject({ kind: 'abono_webpay', status: 'pending', amount: sel.montoTotal });
    expect(coreOutstanding(await t.core.books(), '630055667788')).toEqual([9, 10]);

    // Two replicas deliver at once, the first try fails at the core: booked once all the same.
    const other = createCorePostings(anotherReplica(kind, t.database.db), t.clock, coreClientFor(t.core.origin), { leaseSeconds: 30, retryPausesMs: [] }, t.app.log);
    await Promise.all([t.app.services.corePostings.postDue(), other.postDue()]);
    await t.database.db.update(coreOperations).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(coreOperations.key, op!.key));
    await Promise.all([t.app.services.corePostings.postDue(), other.postDue()]);
    expect((await opsOf(sel.idTransaccion))[0]).toMatchObject({ status: 'booked' });
    const books = await t.core.books();
    expect(coreOutstanding(books, '630055667788')).toEqual([10]);
    expect(bookedWrites(books, op!.key)).toHaveLength(1);

    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/pago_online_core_postings_pending 0/);
  });

  /** Pays the oldest instalment of a product by card and returns from Webpay: the credit waits in the outbox. */
  async function paidByCard(rut: string, numeroProducto: string) {
    const { token, productos } = await listProducts(t.app, rut);
    const product = productNumbered(productos, numeroProducto);
    const sel = (await postSeleccionar(t.app, token, rut, [oldest(product, 1)])).json().seleccionarProductoResponse;
    const auth = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/auth', headers: { authorization: `Bearer ${token}` }, payload: { idTransaction: sel.idTransaccion } });
    const init = await t.app.inject({
      method: 'POST',
      url: '/api/pagoexpress/initMall',
      headers: { authorization: `Bearer ${auth.json().token as string}` },
      payload: { sessionId: `${token}${rut}`, transactionId: sel.idTransaccion, storesTransaction: [{ amount: sel.montoTotal, commerceCode: '597055555536', transactionId: product.numeroProducto }] },
    });
    const webpayToken = init.json().token as string;
    await sim.inject({ method: 'POST', url: '/webpayserver/pay', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token: webpayToken, card: VISA, expiry: '12/29', cvv: '123' }).toString() });
    const back = await t.app.inject({ method: 'POST', url: '/api/pagoexpress/webpay/return', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token_ws: webpayToken }).toString() });
    expect(back.headers.location).toContain('estado=aprobado');
    return { idTransaccion: sel.idTransaccion as string };
  }
  const dueNow = (idTransaccion: string) => t.database.db.update(coreOperations).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(coreOperations.idTransaccion, idTransaccion));
  const triesOfTransaction = async (idTransaccion: string) => (await opsOf(idTransaccion)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((o) => [o.key, o.status]);

  it('goes on under a new key when the core records a failure of a card credit and answers it to every repeat: booked once', async () => {
    const { idTransaccion } = await paidByCard('11111111-1', '630055667788');
    const [op] = await opsOf(idTransaccion);
    await t.core.faults({ failNext: 1 });
    await dueNow(idTransaccion);
    // The first 500 may come from outside the core's record: asked again under the same key.
    expect(await t.app.services.corePostings.postDue()).toMatchObject({ unanswered: 1 });
    await dueNow(idTransaccion);
    // The repeat is served from the core's record: that key will never book, the credit goes on under the next one.
    expect(await t.app.services.corePostings.postDue()).toMatchObject({ failed: 1 });
    expect(await triesOfTransaction(idTransaccion)).toEqual([[op!.key, 'failed'], [`${op!.key}.r1`, 'pending']]);
    // The next try waits its back-off, then books.
    expect(await t.app.services.corePostings.postDue()).toMatchObject({ booked: 0 });
    await dueNow(idTransaccion);
    expect(await t.app.services.corePostings.postDue()).toMatchObject({ booked: 1 });
    expect(await triesOfTransaction(idTransaccion)).toEqual([[op!.key, 'failed'], [`${op!.key}.r1`, 'booked']]);
    const books = await t.core.books();
    expect(coreOutstanding(books, '630055667788')).toEqual([10]);
    expect(books.writes.filter((w) => w.idempotencyKey === op!.key).map((w) => [w.statusCode, w.note ?? null])).toEqual([
      [500, null],
      [500, 'served from cache'],
    ]);
    expect(bookedWrites(books, `${op!.key}.r1`)).toHaveLength(1);
    // Nothing is left for the console: the credit is booked.
    const consola = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(consola.body).toMatch(/pago_online_core_postings_pending 0/);
  });

  it('hands a card credit to the console once the core has failed it under each of its tries', async () => {
    const { idTransaccion } = await paidByCard('11111111-1', '630055667788');
    const [op] = await opsOf(idTransaccion);
    await t.core.faults({ failNext: CARD_CREDIT_TRIES });
    for (let i = 0; i < CARD_CREDIT_TRIES * 2; i++) {
      await dueNow(idTransaccion);
      await t.app.services.corePostings.postDue();
    }
    const tries = await triesOfTransaction(idTransaccion);
    expect(tries).toHaveLength(CARD_CREDIT_TRIES);
    expect(tries.at(-1)).toEqual([`${op!.key}.r${CARD_CREDIT_TRIES - 1}`, 'refused']);
    expect(tries.slice(0, -1).every(([, status]) => status === 'failed')).toBe(true);
    expect(coreOutstanding(await t.core.books(), '630055667788')).toEqual([9, 10]);
    // The console lists the last try alone, for an operator to re-post (its next key) or refund.
    const listed = await t.app.inject({ method: 'GET', url: '/admin/core/rechazadas', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect((listed.json().consolaResponse.abonos as { clave: string }[]).map((a) => a.clave)).toEqual([`${op!.key}.r${CARD_CREDIT_TRIES - 1}`]);
  });

  it('tells the member when the core records a failure of the debit, makes the instalment payable again, and debits once on the next try', async () => {
    const first = await readyToPay('11111111-1', '630055667788', 1);
    const before = coreSavings(await t.core.books(), '000031245601').balance;
    await t.core.faults({ failNext: 1 });
    const res = await first.pay();
    expect(res.json()[PAG].error.errores.detalleError).toMatchObject({ codigo: '502', descripcion: expect.stringContaining('No pudimos comunicarnos') });
    expect(await statusOf(first.idTransaccion)).toBe('pending');
    expect(await localPending('630055667788')).toEqual([9, 10]);
    expect(await triesOfTransaction(first.idTransaccion)).toEqual([[`${first.idTransaccion}-1`, 'failed']]);
    // A repeat of the same call answers the same and asks nothing of the core.
    expect((await first.pay()).json()[PAG].error.errores.detalleError.codigo).toBe('502');
    let books = await t.core.books();
    expect(coreSavings(books, '000031245601').balance).toBe(before);
    expect(books.writes.filter((w) => w.idempotencyKey === `${first.idTransaccion}-1`).map((w) => [w.statusCode, w.note ?? null])).toEqual([
      [500, null],
      [500, 'served from cache'],
    ]);

    // The member authorises again: the next try, under its own key, is debited once.
    const cells = (await postAutorizar(t.app, first.token, '11111111-1', '11111111-1', 1)).json()[AUZ].desafio.item as { valor: string }[];
    const card = demoCoordinateCard('11111111-1');
    const paid = await postPagar(t.app, { token: first.token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta: first.numeroCuenta, factor: 1, valores: cells.map((c) => card[c.valor]!) });
    expect(paid.json()[PAG].productoPagadoCV).toMatchObject({ idTransaccion: first.idTransaccion, montoPagado: first.total });
    books = await t.core.books();
    expect(coreSavings(books, '000031245601').balance).toBe(before - first.total);
    expect(coreOutstanding(books, '630055667788')).toEqual([10]);
    expect(await triesOfTransaction(first.idTransaccion)).toEqual([
      [`${first.idTransaccion}-1`, 'failed'],
      [`${first.idTransaccion}-2`, 'booked'],
    ]);
  });

  /** Camila's two loans in one selection, ready for call 6: an own-account payment that goes as one enclosing batch. */
  async function readyToPayTwo() {
    const rut = '11111111-1';
    const { token, productos } = await listProducts(t.app, rut);
    const sel = await postSeleccionar(t.app, token, rut, [oldest(productNumbered(productos, '410012345678'), 1), oldest(productNumbered(productos, '410087654321'), 1)]);
    const { idTransaccion, montoTotal } = sel.json().seleccionarProductoResponse as { idTransaccion: string; montoTotal: number };
    const numeroCuenta = (await postAutentica(t.app, token, rut, '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta as string;
    let valores: string[] | undefined;
    /** Call 6, repeated with the same answers, or after a new authorisation (`fresh`) as a member's next try. */
    const pay = async (fresh = false) => {
      if (!valores || fresh) {
        const cells = (await postAutorizar(t.app, token, rut, rut, 1)).json()[AUZ].desafio.item as { valor: string }[];
        const card = demoCoordinateCard(rut);
        valores = cells.map((c) => card[c.valor]!);
      }
      return postPagar(t.app, { token, rutTitular: rut, rutPago: rut, numeroCuenta, factor: 1, valores });
    };
    return { idTransaccion, total: montoTotal, pay };
  }
  const batchRecords = async (key: string) =>
    ((await (await fetch(`${t.core.origin}/__sim/books`)).json()) as { idempotency: { key: string; state: string }[] }).idempotency.filter((r) => r.key.startsWith(`${key}.`)).map((r) => [r.key, r.state]);

  it('books a two-product payment once when a repeat of its batch meets the first still running at the core: the repeat rolls back, the next is answered from the first', async () => {
    const { idTransaccion, total, pay } = await readyToPayTwo();
    // The core down for the first call 6: nothing reaches it, the adapter has learnt the accounts' ids.
    await t.core.faults({ unavailableNext: 1_000 });
    expect((await pay()).json()[PAG].error.errores.detalleError.codigo).toBe('503');
    const before = coreSavings(await t.core.books(), '000031245601').balance;
    // The core slower than our timeout (3 s): the member's next call 6 gives up on its first ask while the batch is
    // still open at the core, and asks again 250 ms later; that repeat waits on the batch's rows, rolls back, and
    // answers 500 under the first's records; the third ask is answered from them.
    await t.core.faults({ reset: true, latencyMs: 3_500 });
    const paid = await pay();
    expect(paid.json()[PAG].productoPagadoCV).toHaveLength(2);
    await t.core.faults({ reset: true });
    const books = await t.core.books();
    expect(coreSavings(books, '000031245601').balance).toBe(before - total);
    expect(coreOutstanding(books, '410012345678')).toEqual([22, 23, 24]);
    expect(coreOutstanding(books, '410087654321')).toEqual([12]);
    // Three batches reached the core: the first (committed), the repeat (rolled back), the one answered from records.
    expect(books.writes.filter((w) => w.path.includes('/batches'))).toHaveLength(3);
    const key = `${idTransaccion}-1`;
    expect(await batchRecords(key)).toEqual([
      [`${key}.0`, 'done'],
      [`${key}.1`, 'done'],
      [`${key}.2`, 'done'],
    ]);
    const repayments = books.loans.flatMap((l) => l.transactions.filter((x) => x.externalId?.startsWith(`${key}.`)).map((x) => x.externalId));
    expect(repayments.sort()).toEqual([`${key}.1`, `${key}.2`]);
    expect(await statusOf(idTransaccion)).toBe('paid');
    expect(await triesOfTransaction(idTransaccion)).toEqual([[key, 'booked']]);
  }, 60_000);

  it('ends an own-account debit the core failed with 409 after its own retries, kept under the key: the member is told, nothing debited', async () => {
    const first = await readyToPay('11111111-1', '630055667788', 1);
    const before = coreSavings(await t.core.books(), '000031245601').balance;
    await t.core.faults({ conflictNext: 1 });
    const res = await first.pay();
    expect(res.json()[PAG].error.errores.detalleError).toMatchObject({ codigo: '502', descripcion: expect.stringContaining('No pudimos comunicarnos') });
    expect(await statusOf(first.idTransaccion)).toBe('pending');
    expect(await localPending('630055667788')).toEqual([9, 10]);
    expect(await triesOfTransaction(first.idTransaccion)).toEqual([[`${first.idTransaccion}-1`, 'failed']]);
    const books = await t.core.books();
    expect(coreSavings(books, '000031245601').balance).toBe(before);
    // The first ask met Fineract's 409 (or our timeout while its retries ran); the repeat, the 409 it keeps.
    expect(books.writes.filter((w) => w.idempotencyKey === `${first.idTransaccion}-1`).map((w) => [w.statusCode, w.note ?? null])).toEqual([
      [409, null],
      [409, 'served from cache'],
    ]);
  }, 30_000);

  it('ends an own-account batch the core always rolls back after its bounded tries: the member may pay again, debited once', async () => {
    const { idTransaccion, total, pay } = await readyToPayTwo();
    const before = coreSavings(await t.core.books(), '000031245601').balance;
    // Every batch fails inside the core (500 on its first item) and is rolled back: nothing kept, nothing debited.
    await t.core.faults({ failNext: 1_000 });
    expect((await pay()).json()[PAG].error.errores.detalleError.codigo).toBe('503');
    const tallies = [];
    for (let i = 1; i < CORE_BATCH_TRIES; i++) {
      await dueNow(idTransaccion);
      tallies.push(await t.app.services.corePostings.postDue());
    }
    expect(tallies.map((x) => [x.unanswered, x.failed])).toEqual([...Array.from({ length: CORE_BATCH_TRIES - 2 }, () => [1, 0]), [0, 1]]);
    expect(await triesOfTransaction(idTransaccion)).toEqual([[`${idTransaccion}-1`, 'failed']]);
    expect(await statusOf(idTransaccion)).toBe('pending');
    expect(await localPending('410087654321')).toEqual([11, 12]);
    expect(coreSavings(await t.core.books(), '000031245601').balance).toBe(before);
    // Nothing more is asked of the core under that try.
    await dueNow(idTransaccion);
    expect(await t.app.services.corePostings.postDue()).toEqual({ booked: 0, refused: 0, unanswered: 0, failed: 0 });
    const [event] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'core.debito.fallido'));
    expect(event).toMatchObject({ kind: 'core.debito.fallido' });

    // The member pays again: the next try, under its own key, is debited once.
    await t.core.faults({ reset: true });
    expect((await pay(true)).json()[PAG].productoPagadoCV).toHaveLength(2);
    expect(coreSavings(await t.core.books(), '000031245601').balance).toBe(before - total);
    expect(await triesOfTransaction(idTransaccion)).toEqual([
      [`${idTransaccion}-1`, 'failed'],
      [`${idTransaccion}-2`, 'booked'],
    ]);
  });

  it('keeps a payment made here when the core’s pre-payment extract is loaded afterwards', async () => {
    const extract = (await (await fetch(`${t.core.origin}/__sim/extract`)).json()) as { corte: string; socios: unknown[] };
    const { idTransaccion, total, pay } = await readyToPay('15432876-9', '630043218765', 1);
    expect((await pay()).json()[PAG].productoPagadoCV).toBeDefined();
    expect(await localPending('630043218765')).toEqual([6]);

    const load = await t.app.inject({ method: 'POST', url: '/admin/importacion', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: extract });
    expect(load.json().operacionesResponse).toMatchObject({ rechazados: [] });
    // The extract was cut before the payment: the instalment stays paid and the debit stays made.
    expect(await localPending('630043218765')).toEqual([6]);
    const coreBalance = (extract.socios as { rut: string; cuenta?: { saldo: number } }[]).find((s) => s.rut.replace(/\./g, '') === '15432876-9')!.cuenta!.saldo;
    expect(await localBalance('15432876-9')).toBe(coreBalance - total);

    // An extract cut after the core booked it shows it itself: nothing is taken off twice.
    const later = (await (await fetch(`${t.core.origin}/__sim/extract`)).json()) as { corte: string; socios: unknown[] };
    await t.app.inject({ method: 'POST', url: '/admin/importacion', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: later });
    expect(await localPending('630043218765')).toEqual([6]);
    expect(await localBalance('15432876-9')).toBe(coreBalance - total);
    expect(await statusOf(idTransaccion)).toBe('paid');
  });

  it('reconciles the day with the core by key, this channel’s only: matched, pending, missing in the core, missing here, another amount; as CSV too', async () => {
    const own = await readyToPay('11111111-1', '630055667788', 1);
    expect((await own.pay()).json()[PAG].productoPagadoCV).toBeDefined();
    // A card credit still in the outbox is pending, not a difference.
    const productId = (await t.database.db.select({ id: products.id }).from(products).where(eq(products.numeroProducto, '800012340001')))[0]!.id;
    await t.database.db.insert(coreOperations).values({ key: 'PO00000000000000e1-1', idTransaccion: own.idTransaccion, kind: 'abono_webpay', amount: 1_000, lines: [{ productId, numeroProducto: '800012340001', family: 'AH', amount: 1_000 }] });
    // Ours says booked, the core never saw it.
    await t.database.db.insert(coreOperations).values({ key: 'PO00000000000000e2-1', idTransaccion: own.idTransaccion, kind: 'abono_webpay', status: 'booked', amount: 2_000, lines: [{ productId, numeroProducto: '800012340001', family: 'AH', amount: 2_000 }] });
    // The core holds a deposit under a key of ours that we do not have.
    const auth = { authorization: `Basic ${Buffer.from('mifos:password').toString('base64')}`, 'fineract-platform-tenantid': 'default', 'content-type': 'application/json' };
    const ah = (await (await fetch(`${t.core.origin}/fineract-provider/api/v1/savingsaccounts/external-id/800012340001`, { headers: auth })).json()) as { id: number };
    const post = (path: string, body: Record<string, unknown>) =>
      fetch(`${t.core.origin}/fineract-provider/api/v1/${path}`, { method: 'POST', headers: auth, body: JSON.stringify({ locale: 'en', dateFormat: 'dd MMMM yyyy', ...body }) });
    const today = fineractDate(t.clock());
    expect((await post(`savingsaccounts/${ah.id}/transactions?command=deposit`, { transactionDate: today, transactionAmount: 3_000, paymentTypeId: 1, receiptNumber: 'PO00000000000000f1-1' })).status).toBe(200);
    // On the same accounts and day, other channels' money is not ours: a teller's deposit (its own payment type, even
    // with a receipt that looks like our key), another channel's loan repayment, an external id Fineract generated
    // under our payment type, and our payment type and key format on another day.
    expect((await post(`savingsaccounts/${ah.id}/transactions?command=deposit`, { transactionDate: today, transactionAmount: 4_000, paymentTypeId: 3, receiptNumber: 'PO00000000000000f2-1' })).status).toBe(200);
    expect((await post(`savingsaccounts/${ah.id}/transactions?command=deposit`, { transactionDate: today, transactionAmount: 5_000, paymentTypeId: 3, receiptNumber: 'CAJA-0042' })).status).toBe(200);
    const loan = (await (await fetch(`${t.core.origin}/fineract-provider/api/v1/loans/external-id/630055667788`, { headers: auth })).json()) as { id: number };
    expect((await post(`loans/${loan.id}/transactions?command=repayment`, { transactionDate: today, transactionAmount: 1_000, paymentTypeId: 3, externalId: 'OTRO-CANAL-77' })).status).toBe(200);
    expect((await post(`loans/${loan.id}/transactions?command=repayment`, { transactionDate: today, transactionAmount: 1_000, paymentTypeId: 1, externalId: '6f1c2b9e-4d0a-4b7e-9a51-3c2d8e7f0a11' })).status).toBe(200);
    expect((await post(`savingsaccounts/${ah.id}/transactions?command=deposit`, { transactionDate: '01 January 2026', transactionAmount: 6_000, paymentTypeId: 1, receiptNumber: 'PO00000000000000f3-1' })).status).toBe(200);

    const fecha = businessToday(t.clock());
    const res = await t.app.inject({ method: 'GET', url: `/admin/conciliacion/core?fecha=${fecha}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    const report = res.json().operacionesResponse as CoreReconciliation;
    const byKey = Object.fromEntries(report.lineas.map((l) => [l.clave, l.resultado]));
    expect(byKey).toEqual({ [`${own.idTransaccion}-1`]: 'conciliada', 'PO00000000000000e1-1': 'pendiente', 'PO00000000000000e2-1': 'falta en el core', 'PO00000000000000f1-1': 'falta aquí' });
    expect(report).toMatchObject({ fecha, conciliadas: 1, diferencias: 2 });

    // Our amount disagrees with the core's.
    await t.database.db.update(coreOperations).set({ amount: 1 }).where(eq(coreOperations.key, `${own.idTransaccion}-1`));
    const again = (await t.app.inject({ method: 'GET', url: `/admin/conciliacion/core?fecha=${fecha}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).json().operacionesResponse as CoreReconciliation;
    expect(again.lineas.find((l) => l.clave === `${own.idTransaccion}-1`)).toMatchObject({ resultado: 'monto distinto', montoAqui: 1, montoCore: 156_300 });
    const csv = reconciliationCsv(again).trim().split('\n');
    expect(csv[0]).toBe('fecha,clave,idTransaccion,tipo,estadoAqui,montoAqui,montoCore,resultado');
    expect(csv).toContain(`${fecha},PO00000000000000f1-1,,,,,3000,falta aquí`);
    expect(csv).toHaveLength(5);

    // The hourly job keeps the differences as a metric; a malformed date is a 400, the core down a 503.
    await t.app.scheduler.runNow('core-reconciliation');
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/pago_online_core_reconciliation_differences\{dia="hoy"\} 3/);
    expect((await t.app.inject({ method: 'GET', url: '/admin/conciliacion/core?fecha=20261399', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode).toBe(400);
    await t.core.close();
    expect((await t.app.inject({ method: 'GET', url: `/admin/conciliacion/core?fecha=${fecha}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode).toBe(503);
  });
});
