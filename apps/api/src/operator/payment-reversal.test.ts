import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { coreOperations, instalments, mailQueue, operatorChanges, transactionItems, transactions, vouchers, webpayAttempts } from '../db/schema';
import { isoToday } from '../services/day-close-service';
import { listar, oldestOf, payOwnAccount, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from '../../test/reliability/flows';
import { injectTarget } from '../../test/reliability/http';
import { captureLedger, checkInvariants, type LedgerSnapshot } from '../../test/reliability/ledger';
import { productNumbered } from '../../test/support/member-calls';
import { asOperator, operatorSession, type OperatorSession } from '../../test/support/operator-session';
import { webpaySimPerTest } from '../../test/support/webpay-sim';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN, type CoreBooks } from '../../test/support/test-app';

// A paid payment reversed through four eyes (decision 050), against the core simulator (as strict as Fineract) and
// the Webpay simulator: the money goes back once in each set of books and the instalments are owed again.

const RUT = '11111111-1';
const CUENTA = '000031245601';
const MOTIVO = 'El socio pagó el producto equivocado por teléfono';

describe.each(DATABASE_KINDS)('reversing a paid payment, through four eyes, on %s', (kind) => {
  const webpay = webpaySimPerTest();
  const t = appPerTest(kind, { webpay: webpay.client, config: { altchaCounter: { min: 10, max: 50 } } });

  const op = () => t.app.operator;
  const target = () => injectTarget(t.app);
  const db = () => t.database.db;
  const propose = (session: OperatorSession, idTransaccion: string, payload: Record<string, unknown> = { motivo: MOTIVO }) =>
    op().inject({ method: 'POST', url: `/admin/transacciones/${idTransaccion}/anular`, headers: asOperator(session), payload });
  const decide = (session: OperatorSession, id: string, action: 'aprobar' | 'rechazar') => op().inject({ method: 'POST', url: `/admin/cambios/${id}/${action}`, headers: asOperator(session) });
  const statusOf = async (id: string) => (await db().select({ s: transactions.status }).from(transactions).where(eq(transactions.idTransaccion, id)))[0]!.s;
  const descripcion = (res: { json(): unknown }) => (res.json() as { consolaResponse: { error: { errores: { detalleError: { descripcion: string } } } } }).consolaResponse.error.errores.detalleError.descripcion;

  /** What the instalments the payment paid owe now, by id. */
  async function owedOf(idTransaccion: string): Promise<Map<string, number>> {
    const items = await db().select().from(transactionItems).where(eq(transactionItems.idTransaccion, idTransaccion));
    const ids = items.map((i) => i.instalmentId).filter((x): x is string => x !== null);
    const rows = ids.length ? await db().select().from(instalments).where(inArray(instalments.id, ids)) : [];
    return new Map(rows.map((r) => [r.id, r.montoPendiente]));
  }

  /** Our books, Webpay's and the core's against each other (the reliability suite's ledger): none may disagree. */
  async function violations(before: LedgerSnapshot): Promise<string[]> {
    return (await checkInvariants(db(), before, { provider: webpay.store, core: await t.core.books(), noPendingPostings: true })).violations;
  }

  /** The payment's line in its day's close (decision 049): a reversal settled on every side leaves no difference. */
  async function closeLineOf(session: OperatorSession, idTransaccion: string) {
    const res = await op().inject({ method: 'GET', url: `/admin/cierre?fecha=${isoToday(new Date())}`, headers: { cookie: session.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().cierreResponse.lineas as { idTransaccion: string; nuestro: { estado: string }; core: { monto: number }; causas: string[] }[]).find((l) => l.idTransaccion === idTransaccion);
  }

  const savingsOf = (books: CoreBooks, numero: string) => books.savings.find((s) => s.externalId === numero)!;
  const loanOf = (books: CoreBooks, numero: string) => books.loans.find((l) => l.externalId === numero)!;
  const outstanding = (books: CoreBooks, numero: string) => loanOf(books, numero).periods.reduce((sum, p) => sum + p.totalOutstandingForPeriod, 0);

  async function payOwn(products: string[], cuotas = 1) {
    const { token, productos } = await listar(target(), RUT);
    const sel = await seleccionar(target(), token, RUT, products.map((n) => oldestOf(productNumbered(productos, n), cuotas)));
    await payOwnAccount(target(), { token, memberRut: RUT, payerRut: RUT, clave: '1234' });
    expect(await statusOf(sel.idTransaccion)).toBe('paid');
    return sel.idTransaccion;
  }

  async function payCard(numero: string) {
    const { token, productos } = await listar(target(), RUT);
    const producto = [oldestOf(productNumbered(productos, numero), 1, 10_000)];
    const sel = await seleccionar(target(), token, RUT, producto);
    const started = await startCard(target(), { token, rut: RUT }, { idTransaccion: sel.idTransaccion, producto });
    expect(await postReturn(target(), await useCardForm(webpay.url, started.webpayToken, { card: VISA_APPROVED }))).toBe('aprobado');
    await t.app.services.corePostings.postDue();
    return { idTransaccion: sel.idTransaccion, webpayToken: started.webpayToken };
  }

  it('reverses an own-account payment of two loans once a second finance operator approves: the core undoes the batch, the cuenta vista gets its money back, the instalments are owed again', async () => {
    const ledger = await captureLedger(db());
    const booksBefore = await t.core.books();
    const owedBefore = savingsOf(booksBefore, CUENTA).balance;
    const outstandingBefore = outstanding(booksBefore, '410012345678') + outstanding(booksBefore, '410087654321');
    const idTransaccion = await payOwn(['410012345678', '410087654321']);
    const owedPaid = await owedOf(idTransaccion);
    expect([...owedPaid.values()].every((v) => v === 0)).toBe(true);
    const paidBooks = await t.core.books();
    expect(savingsOf(paidBooks, CUENTA).balance).toBeLessThan(owedBefore);

    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    // A person gives a reason; an agent, or a role without the permission, is refused; a second proposal waits.
    expect((await propose(maker, idTransaccion, {})).statusCode).toBe(400);
    expect((await propose(maker, idTransaccion, { motivo: 'no' })).statusCode).toBe(400);
    expect((await propose(await operatorSession(op(), 'agente'), idTransaccion)).statusCode).toBe(403);
    const proposed = await propose(maker, idTransaccion);
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().consolaResponse.cambio;
    expect(cambio).toMatchObject({ tipo: 'anulacion_pago', objetivo: idTransaccion, estado: 'pendiente', propuestoPor: 'Fernanda Finanzas', propuesta: { motivo: MOTIVO } });
    expect((await propose(checker, idTransaccion)).statusCode).toBe(409);
    // Proposing moves nothing; the proposer, another role or a machine never approve.
    expect(await statusOf(idTransaccion)).toBe('paid');
    expect((await decide(maker, cambio.id, 'aprobar')).statusCode).toBe(403);
    expect((await decide(await operatorSession(op(), 'agente'), cambio.id, 'aprobar')).statusCode).toBe(403);
    expect((await op().inject({ method: 'POST', url: `/admin/cambios/${cambio.id}/aprobar`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode).toBe(403);
    expect(await statusOf(idTransaccion)).toBe('paid');

    const approved = await decide(checker, cambio.id, 'aprobar');
    expect(approved.statusCode).toBe(200);
    expect(approved.json().cambiosResponse.cambio).toMatchObject({
      estado: 'aprobado',
      decididoPor: 'Felipe Finanzas',
      resultado: { paso: 'anulado', anulacion: 'Anulado: el dinero volvió al socio y las cuotas se deben de nuevo' },
    });
    expect(await statusOf(idTransaccion)).toBe('reversed');
    // Our books: every instalment owed again as before.
    const owedAfter = await owedOf(idTransaccion);
    expect([...owedAfter.values()].every((v) => v > 0)).toBe(true);
    const items = await db().select({ s: transactionItems.status }).from(transactionItems).where(eq(transactionItems.idTransaccion, idTransaccion));
    expect(items.map((i) => i.s)).toEqual(['reversed', 'reversed']);
    // The core's: the cuenta vista and the loans as before the payment, each transaction undone once.
    const after = await t.core.books();
    expect(savingsOf(after, CUENTA).balance).toBe(owedBefore);
    expect(outstanding(after, '410012345678') + outstanding(after, '410087654321')).toBe(outstandingBefore);
    const undos = after.writes.filter((w) => w.idempotencyKey?.includes('.x') && w.statusCode === 200);
    expect(undos).toHaveLength(3);

    // Once: the decision is taken, the payment is reversed, the job finds nothing to do.
    expect((await decide(checker, cambio.id, 'aprobar')).statusCode).toBe(409);
    const again = await propose(maker, idTransaccion);
    expect(again.statusCode).toBe(409);
    expect(descripcion(again)).toBe('El pago ya fue anulado.');
    await t.app.scheduler.runNow('payment-reversals');
    await t.app.services.corePostings.postDue();
    expect((await t.core.books()).writes.filter((w) => w.idempotencyKey?.includes('.x') && w.statusCode === 200)).toHaveLength(3);

    expect(await violations(ledger)).toEqual([]);
    // The voucher's public verification says the payment was reversed.
    const [voucher] = await db().select().from(vouchers).where(eq(vouchers.idTransaccion, idTransaccion));
    const verified = await t.app.inject({ method: 'GET', url: `/api/comprobante/verificar/${voucher!.verificationCode}` });
    expect(verified.json().verificacion).toMatchObject({ registrado: true, anulado: true });
    // The member is told; the console's view says who, why and where it stands.
    const mails = await db().select().from(mailQueue);
    expect(mails.some((m) => m.subject.includes('tu pago fue anulado') && m.text.includes(idTransaccion))).toBe(true);
    const view = await op().inject({ method: 'GET', url: `/admin/transacciones/${idTransaccion}`, headers: { cookie: checker.cookie } });
    expect(view.json().operacionesResponse).toMatchObject({
      anulacion: { propuestoPor: 'Fernanda Finanzas', aprobadoPor: 'Felipe Finanzas', motivo: MOTIVO, paso: 'anulado' },
    });
  });

  it('reverses an own-account deposit to a savings product by a transfer back, and refuses one to a loan posted as a transfer', async () => {
    const ledger = await captureLedger(db());
    const before = savingsOf(await t.core.books(), CUENTA).balance;
    const idTransaccion = await payOwn(['800012340002']);
    const maker = await operatorSession(op(), 'finanzas2');
    const checker = await operatorSession(op(), 'finanzas');
    const cambio = (await propose(maker, idTransaccion)).json().consolaResponse.cambio;
    expect((await decide(checker, cambio.id, 'aprobar')).json().cambiosResponse.cambio.resultado.paso).toBe('anulado');
    const books = await t.core.books();
    expect(savingsOf(books, CUENTA).balance).toBe(before);
    expect(books.transfers.filter((x) => x.description.endsWith('.x'))).toHaveLength(1);
    expect(await violations(ledger)).toEqual([]);
    expect(await closeLineOf(checker, idTransaccion)).toMatchObject({ nuestro: { estado: 'reversed' }, core: { monto: 0 }, causas: [] });

    const loan = await payOwn(['410012345678']);
    const refused = await propose(maker, loan);
    expect(refused.statusCode).toBe(409);
    expect(descripcion(refused)).toMatch(/^El core no permite anular un pago a un crédito hecho por transferencia/);
    expect(await statusOf(loan)).toBe('paid');
  });

  it('reverses a card payment: the core undoes the credit, then Webpay refunds the webpay.store, once', async () => {
    const ledger = await captureLedger(db());
    const { idTransaccion, webpayToken } = await payCard('800012340001');
    const before = savingsOf(await t.core.books(), '800012340001').balance;
    const cambio = (await propose(await operatorSession(op(), 'finanzas'), idTransaccion)).json().consolaResponse.cambio;
    const approved = await decide(await operatorSession(op(), 'finanzas2'), cambio.id, 'aprobar');
    expect(approved.json().cambiosResponse.cambio.resultado).toMatchObject({ paso: 'anulado', ordenCompra: expect.any(String) });
    expect(await statusOf(idTransaccion)).toBe('reversed');
    expect(savingsOf(await t.core.books(), '800012340001').balance).toBe(before - 10_000);
    expect(webpay.store.get(webpayToken)!.details.map((d) => d.status)).toEqual(['REVERSED']);
    expect(webpay.refundsSent).toBe(1);
    const [attempt] = await db().select().from(webpayAttempts).where(eq(webpayAttempts.token, webpayToken));
    expect(attempt!.status).toBe('refunded');
    await t.app.scheduler.runNow('payment-reversals');
    expect((await t.app.services.card.reconcileOnce()).settled).toBe(0);
    expect(webpay.refundsSent).toBe(1);
    expect(await violations(ledger)).toEqual([]);
    expect(await closeLineOf(await operatorSession(op(), 'auditor'), idTransaccion)).toMatchObject({ nuestro: { estado: 'reversed' }, core: { monto: 0 }, causas: [] });
  });

  it('leaves a payment applied when the core refuses to give anything back (the deposit was spent), says why, and refuses proposing it again', async () => {
    const ledger = await captureLedger(db());
    const { idTransaccion, webpayToken } = await payCard('800012340001');
    // The member spends the savings at a teller: undoing the deposit would take the balance below zero.
    const account = ((await t.core.books()) as unknown as { today: string; savings: { id: number; externalId: string; balance: number }[] }).savings.find((a) => a.externalId === '800012340001')!;
    const day = new Date(`${isoToday(new Date())}T12:00:00Z`).toLocaleDateString('en-GB', { day: '2-digit', month: 'long', year: 'numeric', timeZone: 'UTC' });
    const spent = await fetch(`${t.core.origin}/fineract-provider/api/v1/savingsaccounts/${account.id}/transactions?command=withdrawal`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('mifos:password').toString('base64')}`, 'fineract-platform-tenantid': 'default', 'content-type': 'application/json' },
      body: JSON.stringify({ locale: 'en', dateFormat: 'dd MMMM yyyy', transactionDate: day, transactionAmount: account.balance, paymentTypeId: 3 }),
    });
    expect(spent.status, await spent.text()).toBe(200);

    const maker = await operatorSession(op(), 'finanzas');
    const cambio = (await propose(maker, idTransaccion)).json().consolaResponse.cambio;
    const approved = (await decide(await operatorSession(op(), 'finanzas2'), cambio.id, 'aprobar')).json().cambiosResponse.cambio;
    expect(approved).toMatchObject({ estado: 'fallido', resultado: { paso: 'core_rechazo', motivo: 'El core no puede anularlo: el producto ya no tiene ese saldo (el socio lo usó)' } });
    // Nothing moved anywhere: applied here as in the core, the card charge kept, and nothing half done.
    expect(await statusOf(idTransaccion)).toBe('paid');
    expect(webpay.store.get(webpayToken)!.details.map((d) => d.status)).toEqual(['AUTHORIZED']);
    const [attempt] = await db().select().from(webpayAttempts).where(eq(webpayAttempts.token, webpayToken));
    expect(attempt!.status).toBe('committed');
    await t.app.scheduler.runNow('payment-reversals');
    expect(await statusOf(idTransaccion)).toBe('paid');
    const again = await propose(maker, idTransaccion);
    expect(again.statusCode).toBe(409);
    expect(descripcion(again)).toMatch(/^El core ya rechazó anular este pago \(no devolvió nada\): se anula en el core/);
    expect(await violations(ledger)).toEqual([]);
  });

  it('finishes in the scheduler a card reversal left between the core and Webpay', async () => {
    const ledger = await captureLedger(db());
    const { idTransaccion, webpayToken } = await payCard('410012345678');
    const cambio = (await propose(await operatorSession(op(), 'finanzas'), idTransaccion)).json().consolaResponse.cambio;
    webpay.faults.refundsDown = true;
    const approved = await decide(await operatorSession(op(), 'finanzas2'), cambio.id, 'aprobar');
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ estado: 'aprobado', resultado: { paso: 'webpay' } });
    expect(await statusOf(idTransaccion)).toBe('reversing');
    // The core gave the repayment back and the instalment is owed again; Webpay still holds the charge.
    const [undo] = await db().select().from(coreOperations).where(and(eq(coreOperations.idTransaccion, idTransaccion), eq(coreOperations.kind, 'anulacion')));
    expect(undo!.status).toBe('booked');
    expect([...(await owedOf(idTransaccion)).values()].every((v) => v > 0)).toBe(true);
    expect(webpay.store.get(webpayToken)!.details.map((d) => d.status)).toEqual(['AUTHORIZED']);
    // Half way is consistent too: the core gave it back, Webpay still owes the refund.
    expect(await violations(ledger)).toEqual([]);

    webpay.faults.refundsDown = false;
    await db().update(webpayAttempts).set({ checkedAt: null }).where(eq(webpayAttempts.token, webpayToken));
    await t.app.scheduler.runNow('payment-reversals');
    expect(await statusOf(idTransaccion)).toBe('reversed');
    expect(webpay.store.get(webpayToken)!.details.map((d) => d.status)).toEqual(['REVERSED']);
    expect(webpay.refundsSent).toBe(1);
    const view = await op().inject({ method: 'GET', url: `/admin/transacciones/${idTransaccion}`, headers: { cookie: (await operatorSession(op(), 'auditor')).cookie } });
    expect(view.json().operacionesResponse.anulacion.paso).toBe('anulado');
    expect(await violations(ledger)).toEqual([]);
  });

  it('says so when Webpay refuses the refund after the core gave the money back: the charge is set aside for a manual refund', async () => {
    const { idTransaccion, webpayToken } = await payCard('800012340001');
    const cambio = (await propose(await operatorSession(op(), 'finanzas'), idTransaccion)).json().consolaResponse.cambio;
    webpay.faults.refuseRefunds = true;
    const approved = await decide(await operatorSession(op(), 'finanzas2'), cambio.id, 'aprobar');
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ estado: 'fallido', resultado: { paso: 'webpay_rechazo', motivo: expect.stringMatching(/^Webpay rechazó la devolución/) } });
    expect(await statusOf(idTransaccion)).toBe('reversing');
    const [attempt] = await db().select().from(webpayAttempts).where(eq(webpayAttempts.token, webpayToken));
    expect(attempt!.status).toBe('set_aside');

    // The manual refund of the set-aside charge (decision 036) settles it; the reversal then ends.
    webpay.faults.refuseRefunds = false;
    const refund = await op().inject({ method: 'POST', url: `/admin/webpay/${attempt!.buyOrder}/devolver`, headers: asOperator(await operatorSession(op(), 'finanzas2')), payload: { motivo: 'Devolver la anulación aprobada' } });
    expect(refund.statusCode).toBe(202);
    expect((await decide(await operatorSession(op(), 'finanzas'), refund.json().consolaResponse.cambio.id, 'aprobar')).statusCode).toBe(200);
    await t.app.scheduler.runNow('payment-reversals');
    expect(await statusOf(idTransaccion)).toBe('reversed');
    expect(webpay.refundsSent).toBe(1);
  });

  it('moves the money back once when proposals, approvals and the job run at the same time', async () => {
    const ledger = await captureLedger(db());
    const { idTransaccion, webpayToken } = await payCard('800012340001');
    const maker = await operatorSession(op(), 'finanzas');
    const checker = await operatorSession(op(), 'finanzas2');
    const proposals = await Promise.all([propose(maker, idTransaccion), propose(maker, idTransaccion), propose(checker, idTransaccion)]);
    expect(proposals.map((p) => p.statusCode).sort()).toEqual([202, 409, 409]);
    const cambio = proposals.find((p) => p.statusCode === 202)!.json().consolaResponse.cambio;
    const other = cambio.propuestoPor === 'Fernanda Finanzas' ? checker : maker;
    const [a, b] = await Promise.all([
      decide(other, cambio.id, 'aprobar'),
      decide(other, cambio.id, 'aprobar'),
      t.app.scheduler.runNow('payment-reversals'),
      t.app.services.corePostings.postDue(),
    ]);
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
    await t.app.scheduler.runNow('payment-reversals');
    expect(await statusOf(idTransaccion)).toBe('reversed');
    const books = await t.core.books();
    const deposits = savingsOf(books, '800012340001').transactions.filter((x) => x.receiptNumber?.startsWith('PO'));
    expect(deposits.filter((x) => x.reversed)).toHaveLength(1);
    expect(books.writes.filter((w) => w.idempotencyKey?.endsWith('.x') && w.statusCode === 200 && !w.note)).toHaveLength(1);
    expect(webpay.refundsSent).toBe(1);
    expect(webpay.store.get(webpayToken)!.details.map((d) => d.status)).toEqual(['REVERSED']);
    const mails = (await db().select().from(mailQueue)).filter((m) => m.subject.includes('tu pago fue anulado'));
    expect(mails).toHaveLength(1);
    expect(await violations(ledger)).toEqual([]);
  });

  it('refuses payments that are not paid, and a reversal still waiting', async () => {
    const { token, productos } = await listar(target(), RUT);
    const sel = await seleccionar(target(), token, RUT, [oldestOf(productNumbered(productos, '800012340001'), 1, 5_000)]);
    const maker = await operatorSession(op(), 'finanzas');
    const pending = await propose(maker, sel.idTransaccion);
    expect(pending.statusCode).toBe(409);
    expect(descripcion(pending)).toBe('Solo se anula un pago aplicado.');
    expect((await propose(maker, 'f'.repeat(32))).statusCode).toBe(404);
    expect((await propose(maker, 'not-an-id')).statusCode).toBe(400);
    expect(await db().select().from(operatorChanges)).toHaveLength(0);
  });
});
