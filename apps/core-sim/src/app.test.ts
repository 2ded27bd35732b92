import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDaysWire } from '@pago/domain/dates';
import { DEMO_MEMBERS } from '@pago/domain/demo-members';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, buildCoreSim, type CoreSimOptions } from './app';

const TODAY = '20260310';
const AUTH = { authorization: `Basic ${Buffer.from('mifos:password').toString('base64')}`, 'fineract-platform-tenantid': 'default' };
const DATE = { locale: 'en', dateFormat: 'dd MMMM yyyy' };
const open: FastifyInstance[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Fineract's answers are read as loose JSON: each assertion names the fields it checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

/** A listening simulator; each test starts its own, so none depends on another's bookings. */
async function start(options: Partial<CoreSimOptions> = {}) {
  const app = buildCoreSim({ today: TODAY, ...options });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  open.push(app);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path.startsWith('/__sim') ? '' : BASE}${path}`, {
      method,
      headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Loose };
  };
  return { app, base, call };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
});

/** Camila's cuenta vista and products, by Fineract's ids. */
async function camila(call: Awaited<ReturnType<typeof start>>['call']) {
  const client = (await call('GET', '/clients/external-id/11111111-1')).body;
  const accounts = (await call('GET', `/clients/${client.id}/accounts`)).body;
  const savings = (ext: string) => accounts.savingsAccounts.find((s: Loose) => s.externalId === ext);
  const loan = (ext: string) => accounts.loanAccounts.find((l: Loose) => l.externalId === ext);
  return { client, accounts, cv: savings('000031245601'), cp: savings('700011111111'), tc: savings('5412751234567890'), ah: savings('800012340001'), pc: loan('410012345678') };
}

describe('core banking simulator (Fineract subset)', () => {
  it('refuses a missing or unknown tenant (400) before credentials, and wrong credentials with 401', async () => {
    const { base } = await start();
    const noTenant = await fetch(`${base}${BASE}/clients/external-id/11111111-1`, { headers: { authorization: AUTH.authorization } });
    expect(noTenant.status).toBe(400);
    const unknown = await fetch(`${base}${BASE}/clients/external-id/11111111-1`, { headers: { ...AUTH, 'fineract-platform-tenantid': 'other' } });
    expect(unknown.status).toBe(400);
    const wrong = await fetch(`${base}${BASE}/clients/external-id/11111111-1`, { headers: { ...AUTH, authorization: `Basic ${Buffer.from('mifos:nope').toString('base64')}` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('Basic');
    expect(await wrong.json()).toMatchObject({ status: 401, error: 'Unauthorized' });
  });

  it("reads a client by RUT and its accounts with Fineract's summary fields", async () => {
    const { call } = await start();
    const { client, accounts, cv, pc } = await camila(call);
    expect(client).toMatchObject({ externalId: '11111111-1', displayName: 'Camila Rojas Fuentes', officeId: 1 });
    expect(cv).toMatchObject({ accountNo: '000031245601', productName: 'Cuenta Vista', accountBalance: 5_000_000, status: { active: true } });
    expect(pc).toMatchObject({ productName: 'Crédito de consumo', loanBalance: 4 * 85_430 });
    expect(accounts.savingsAccounts.map((s: Loose) => s.productName)).toEqual(['Cuenta Vista', 'Cuotas de participación', 'Recaudación tarjeta de crédito', 'Ahorro', 'Ahorro']);
    const missing = await call('GET', '/clients/external-id/1-9');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ httpStatusCode: '404', userMessageGlobalisationCode: 'error.msg.resource.not.found', errors: [{ userMessageGlobalisationCode: 'error.msg.client.id.invalid' }] });
  });

  it('deposits, withdraws, refuses a withdrawal beyond the balance with 403, and validates like Fineract', async () => {
    const { call } = await start();
    const { cv } = await camila(call);
    const deposit = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 1000, paymentTypeId: 1, receiptNumber: 'R-1' });
    expect(deposit.status).toBe(200);
    // SavingsAccountWritePlatformServiceJpaRepositoryImpl.deposit: the transaction's id and the payment detail's changes.
    expect(deposit.body).toEqual({ savingsId: cv.id, clientId: expect.any(Number), officeId: 1, resourceId: expect.any(Number), changes: { receiptNumber: 'R-1', paymentTypeId: 1 } });
    const withdrawal = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=withdrawal`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 2000, paymentTypeId: 1 });
    expect(withdrawal.status).toBe(200);
    const refused = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=withdrawal`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 10_000_000, paymentTypeId: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ httpStatusCode: '403', userMessageGlobalisationCode: 'validation.msg.domain.rule.violation', errors: [{ userMessageGlobalisationCode: 'error.msg.savingsaccount.transaction.insufficient.account.balance' }] });
    const read = await call('GET', `/savingsaccounts/external-id/000031245601?associations=transactions`);
    expect(read.body.summary.accountBalance).toBe(4_999_000);
    expect(read.body.transactions[1]).toMatchObject({ transactionType: { deposit: true }, amount: 1000, date: [2026, 3, 10], runningBalance: 5_001_000, reversed: false, paymentDetailData: { receiptNumber: 'R-1' } });

    const unknownKey = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 1, paymentTypeId: 1, externalId: 'x' });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.errors[0]).toMatchObject({ userMessageGlobalisationCode: 'error.msg.parameter.unsupported', parameterName: 'externalId' });
    const noFormat = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, { transactionDate: '10 March 2026', transactionAmount: 0 });
    expect(noFormat.status).toBe(400);
    expect(noFormat.body.errors.map((e: Loose) => e.userMessageGlobalisationCode)).toEqual([
      'validation.msg.missing.dateFormat.parameter',
      'validation.msg.missing.locale.parameter',
      'validation.msg.savingsaccount.transaction.transactionAmount.not.greater.than.zero',
      'validation.msg.savingsaccount.transaction.paymentTypeId.cannot.be.blank',
    ]);
    expect((await call('POST', `/savingsaccounts/9999/transactions?command=deposit`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 1, paymentTypeId: 1 })).status).toBe(404);
  });

  it('repays a loan oldest instalment first, looks the repayment up by externalId, and refuses a repeated externalId', async () => {
    const { call } = await start();
    const { pc } = await camila(call);
    const paid = await call('POST', `/loans/external-id/410012345678/transactions?command=repayment`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 100_000, externalId: 'pago-1', paymentTypeId: 1, receiptNumber: 'R-9' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ loanId: pc.id, resourceExternalId: 'pago-1' });
    const loan = (await call('GET', `/loans/${pc.id}?associations=repaymentSchedule,transactions`)).body;
    expect(loan.repaymentSchedule.periods.slice(0, 2)).toMatchObject([
      { period: 21, dueDate: [2026, 3, 16], totalOutstandingForPeriod: 0, complete: true },
      { period: 22, totalOutstandingForPeriod: 2 * 85_430 - 100_000, complete: false },
    ]);
    expect(loan.summary.totalOutstanding).toBe(4 * 85_430 - 100_000);
    expect(loan.transactions[0]).toMatchObject({ externalId: 'pago-1', amount: 100_000 });
    expect((await call('GET', `/loans/${pc.id}/transactions/external-id/pago-1`)).body).toMatchObject({ id: paid.body.resourceId, amount: 100_000 });
    const again = await call('POST', `/loans/${pc.id}/transactions?command=repayment`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 1, externalId: 'pago-1' });
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatchObject({ parameterName: 'externalId', userMessageGlobalisationCode: 'validation.msg.loan.transaction.externalId.value.must.be.unique' });
  });

  it('transfers savings → loan and savings → savings atomically, refuses insufficient funds, and shows the transfer', async () => {
    const { call } = await start();
    const { client, cv, pc, cp } = await camila(call);
    const transfer = (toAccountType: number, toAccountId: number, amount: number) =>
      call('POST', '/accounttransfers', { ...DATE, fromOfficeId: 1, fromClientId: client.id, fromAccountType: 2, fromAccountId: cv.id, toOfficeId: 1, toClientId: client.id, toAccountType, toAccountId, transferDate: '10 March 2026', transferAmount: amount, transferDescription: 'Pago Online' });
    const toLoan = await transfer(1, pc.id, 85_430);
    expect(toLoan.status).toBe(200);
    expect(toLoan.body).toEqual({ savingsId: cv.id, resourceId: expect.any(Number) });
    const toShares = await transfer(2, cp.id, 7_000);
    expect(toShares.status).toBe(200);
    const refused = await transfer(1, pc.id, 6_000_000);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].userMessageGlobalisationCode).toBe('error.msg.savingsaccount.transaction.insufficient.account.balance');
    const books = (await call('GET', '/__sim/books')).body;
    expect(books.savings.find((s: Loose) => s.id === cv.id).balance).toBe(5_000_000 - 85_430 - 7_000);
    expect(books.loans.find((l: Loose) => l.id === pc.id).totalOutstanding).toBe(3 * 85_430);
    expect(books.savings.find((s: Loose) => s.id === cp.id).plan.map((c: Loose) => c.outstanding)).toEqual([0, 3_000, 5_000, 5_000, 5_000, 5_000]);
    expect((await call('GET', `/accounttransfers/${toLoan.body.resourceId}`)).body).toMatchObject({ transferAmount: 85_430, transferDescription: 'Pago Online', toAccountType: { id: 1 }, reversed: false });
    const cvTx = (await call('GET', `/savingsaccounts/${cv.id}?associations=transactions`)).body.transactions[0];
    expect(cvTx.transfer).toMatchObject({ transferDescription: 'Pago Online', transferAmount: 7_000 });
    // Legs of a transfer cannot be undone one by one (Fineract answers 503).
    const undoLeg = await call('POST', `/savingsaccounts/${cv.id}/transactions/${cvTx.id}?command=undo`, {});
    expect(undoLeg.status).toBe(503);
    expect(undoLeg.body.errors[0].userMessageGlobalisationCode).toBe('error.msg.saving.account.transfer.transaction.update.not.allowed');
  });

  it('undoes a savings transaction and a loan repayment (amount 0); unknown ids answer 404', async () => {
    const { call } = await start();
    const { cv, pc } = await camila(call);
    const dep = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 500, paymentTypeId: 1 });
    // SavingsAccountWritePlatformServiceJpaRepositoryImpl.undoTransaction answers the account's id, not the transaction's.
    const undoDeposit = await call('POST', `/savingsaccounts/${cv.id}/transactions/${dep.body.resourceId}?command=undo`, {});
    expect(undoDeposit.status).toBe(200);
    expect(undoDeposit.body).toEqual({ officeId: 1, clientId: expect.any(Number), savingsId: cv.id, resourceId: cv.id });
    expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(5_000_000);
    const rep = await call('POST', `/loans/${pc.id}/transactions?command=repayment`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 85_430, externalId: 'ext-1', paymentTypeId: 1, receiptNumber: 'R-9' });
    // LoanWritePlatformServiceJpaRepositoryImpl.makeLoanRepaymentWithChargeRefundChargeType: the fields as sent, then the payment detail's.
    expect(rep.body).toEqual({
      officeId: 1,
      clientId: expect.any(Number),
      loanId: pc.id,
      resourceId: expect.any(Number),
      resourceExternalId: 'ext-1',
      changes: { transactionDate: '10 March 2026', transactionAmount: '85430', locale: 'en', dateFormat: 'dd MMMM yyyy', paymentTypeId: 1, externalId: 'ext-1', receiptNumber: 'R-9' },
    });
    const undoBody = { ...DATE, transactionDate: '10 March 2026', transactionAmount: 0 };
    const undo = await call('POST', `/loans/${pc.id}/transactions/${rep.body.resourceId}`, undoBody);
    expect(undo.status).toBe(200);
    // adjustLoanTransaction with no new transaction answers the undone one's ids.
    expect(undo.body).toEqual({
      officeId: 1,
      clientId: expect.any(Number),
      loanId: pc.id,
      resourceId: rep.body.resourceId,
      resourceExternalId: 'ext-1',
      changes: { transactionDate: '10 March 2026', transactionAmount: '0', locale: 'en', dateFormat: 'dd MMMM yyyy' },
    });
    expect((await call('GET', `/loans/${pc.id}`)).body.summary.totalOutstanding).toBe(4 * 85_430);
    // Loan.adjustExistingTransaction reverses whatever it is given: a second undo answers 200 and changes nothing.
    const again = await call('POST', `/loans/${pc.id}/transactions/${rep.body.resourceId}`, undoBody);
    expect([again.status, again.body.resourceId]).toEqual([200, rep.body.resourceId]);
    expect((await call('GET', `/loans/${pc.id}`)).body.summary.totalOutstanding).toBe(4 * 85_430);
    expect((await call('POST', `/savingsaccounts/${cv.id}/transactions/99999?command=undo`, {})).status).toBe(404);
    expect((await call('POST', `/loans/${pc.id}/transactions/99999`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 0 })).status).toBe(404);
  });

  it('applies a batch under enclosingTransaction all or nothing, answering only the failed item', async () => {
    const { call } = await start();
    const { cv, pc, tc } = await camila(call);
    const item = (requestId: number, relativeUrl: string, body: unknown, key?: string) => ({
      requestId,
      relativeUrl,
      method: 'POST',
      headers: key ? [{ name: 'Idempotency-Key', value: key }] : [],
      body: JSON.stringify(body),
    });
    const withdraw = (amount: number) => ({ ...DATE, transactionDate: '10 March 2026', transactionAmount: amount, paymentTypeId: 1 });
    const ok = await call('POST', '/batches?enclosingTransaction=true', [
      item(1, `savingsaccounts/${cv.id}/transactions?command=withdrawal`, withdraw(100_000), 'b-1'),
      item(2, `loans/${pc.id}/transactions?command=repayment`, { ...DATE, transactionDate: '10 March 2026', transactionAmount: 85_430, externalId: 'batch-1' }, 'b-2'),
      item(3, `savingsaccounts/${tc.id}/transactions?command=deposit`, withdraw(14_570), 'b-3'),
    ]);
    expect(ok.status).toBe(200);
    expect(ok.body.map((r: Loose) => r.statusCode)).toEqual([200, 200, 200]);
    expect(JSON.parse(ok.body[1].body)).toMatchObject({ loanId: pc.id, resourceExternalId: 'batch-1' });

    const failed = await call('POST', '/batches?enclosingTransaction=true', [
      item(1, `savingsaccounts/${cv.id}/transactions?command=withdrawal`, withdraw(1_000)),
      item(2, `savingsaccounts/${cv.id}/transactions?command=withdrawal`, withdraw(99_000_000)),
    ]);
    expect(failed.status).toBe(200);
    expect(failed.body).toHaveLength(1);
    expect(failed.body[0]).toMatchObject({ requestId: 2, statusCode: 403 });
    expect(JSON.parse(failed.body[0].body).errors[0].userMessageGlobalisationCode).toBe('error.msg.savingsaccount.transaction.insufficient.account.balance');
    const books = (await call('GET', '/__sim/books')).body;
    expect(books.savings.find((s: Loose) => s.id === cv.id).balance).toBe(4_900_000);
    expect(books.savings.find((s: Loose) => s.id === tc.id).statement.owed.deudaTotal).toBe(512_340 - 14_570);

    // Repeating the first batch's items answers them from the records, booking nothing again.
    const repeat = await call('POST', '/batches?enclosingTransaction=true', [item(1, `savingsaccounts/${cv.id}/transactions?command=withdrawal`, withdraw(100_000), 'b-1')]);
    expect(repeat.body[0]).toMatchObject({ statusCode: 200, headers: [{ name: 'x-served-from-cache', value: 'true' }] });
    expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_900_000);

    // Fineract's batch has no strategy for accounttransfers: 501 and the whole batch rolled back.
    const transfer = await call('POST', '/batches?enclosingTransaction=true', [item(1, `savingsaccounts/${cv.id}/transactions?command=withdrawal`, withdraw(1)), item(2, 'accounttransfers', {})]);
    expect(transfer.body.map((r: Loose) => r.statusCode)).toEqual([200, 501]);
    expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_900_000);
  });

  it('answers a repeated key from its record: same body and x-served-from-cache, 425 while running, the stored error after a failure', async () => {
    const { call } = await start();
    const { cv } = await camila(call);
    const body = { ...DATE, transactionDate: '10 March 2026', transactionAmount: 1_000, paymentTypeId: 1 };
    const path = `/savingsaccounts/${cv.id}/transactions?command=withdrawal`;
    const first = await call('POST', path, body, { 'Idempotency-Key': 'k-1' });
    const second = await call('POST', path, body, { 'Idempotency-Key': 'k-1' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('x-served-from-cache')).toBe('true');
    expect(first.headers.get('x-served-from-cache')).toBeNull();
    expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_999_000);

    // A repeat while the first runs waits as Fineract's retry of executeCommand does (1 s, then 2 s): the first
    // finishing within that, the repeat answers its outcome; still running after it, 425.
    await call('POST', '/__sim/faults', { latencyMs: 300 });
    const [a, b] = await Promise.all([
      call('POST', path, body, { 'Idempotency-Key': 'k-2' }),
      new Promise((r) => setTimeout(r, 50)).then(() => call('POST', path, body, { 'Idempotency-Key': 'k-2' })),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('x-served-from-cache')).toBe('true');
    await call('POST', '/__sim/faults', { latencyMs: 3_500 });
    const started = Date.now();
    const [c, d] = await Promise.all([
      call('POST', path, body, { 'Idempotency-Key': 'k-4' }),
      new Promise((r) => setTimeout(r, 50)).then(() => call('POST', path, body, { 'Idempotency-Key': 'k-4' })),
    ]);
    expect([c.status, d.status]).toEqual([200, 425]);
    expect(d.headers.get('x-served-from-cache')).toBe('true');
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    await call('POST', '/__sim/faults', { reset: true });

    const tooMuch = { ...body, transactionAmount: 90_000_000 };
    const failed = await call('POST', path, tooMuch, { 'Idempotency-Key': 'k-3' });
    const repeated = await call('POST', path, body, { 'Idempotency-Key': 'k-3' });
    expect([failed.status, repeated.status]).toEqual([403, 403]);
    expect(repeated.body).toEqual(failed.body);
    expect(repeated.headers.get('x-served-from-cache')).toBe('true');
    // The key's scope is action + entity, as in Fineract: the same key on a deposit is a new command.
    expect((await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, body, { 'Idempotency-Key': 'k-1' })).headers.get('x-served-from-cache')).toBeNull();
  });

  it('fault switches: failNext fails the command and records it under the key; unavailableNext records nothing; loseNext books, records and drops the answer', async () => {
    const { call } = await start();
    const { cv } = await camila(call);
    const body = { ...DATE, transactionDate: '10 March 2026', transactionAmount: 1_000, paymentTypeId: 1 };
    const path = `/savingsaccounts/${cv.id}/transactions?command=withdrawal`;
    expect((await call('POST', '/__sim/faults', { failNext: 1 })).body).toEqual({ latencyMs: 0, failNext: 1, loseNext: 0, unavailableNext: 0, conflictNext: 0 });
    // SynchronousCommandProcessingService.executeCommand keeps a failed command's answer under its key
    // (saveResultNewTransaction), and IdempotentCommandExceptionMapper answers it to every repeat, served from cache.
    const failed = await call('POST', path, body, { 'Idempotency-Key': 'f-1' });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('x-served-from-cache')).toBeNull();
    const replayed = await call('POST', path, body, { 'Idempotency-Key': 'f-1' });
    expect([replayed.status, replayed.headers.get('x-served-from-cache')]).toEqual([500, 'true']);
    expect(replayed.body).toEqual(failed.body);
    expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(5_000_000);

    // A core that is down never reached Fineract's pipeline: nothing recorded, the repeat runs.
    await call('POST', '/__sim/faults', { unavailableNext: 1 });
    expect((await call('POST', path, body, { 'Idempotency-Key': 'u-1' })).status).toBe(503);
    const ran = await call('POST', path, body, { 'Idempotency-Key': 'u-1' });
    expect([ran.status, ran.headers.get('x-served-from-cache')]).toEqual([200, null]);
    expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_999_000);

    await call('POST', '/__sim/faults', { loseNext: 1 });
    await expect(call('POST', path, body, { 'Idempotency-Key': 'f-2' })).rejects.toThrow();
    expect((await call('GET', '/__sim/faults')).body.loseNext).toBe(0);
    const repeat = await call('POST', path, body, { 'Idempotency-Key': 'f-2' });
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('x-served-from-cache')).toBe('true');
    expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_998_000);
    const writes = (await call('GET', '/__sim/books')).body.writes;
    expect(writes.filter((w: Loose) => w.idempotencyKey === 'f-2').map((w: Loose) => w.statusCode)).toEqual([200, 200]);
  });

  it('keeps its books and keys across a restart on the same data file', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'core-sim-')), 'books.json');
    const first = await start({ dataFile });
    const { cv } = await camila(first.call);
    const body = { ...DATE, transactionDate: '10 March 2026', transactionAmount: 2_500, paymentTypeId: 1 };
    const path = `/savingsaccounts/${cv.id}/transactions?command=withdrawal`;
    const original = await first.call('POST', path, body, { 'Idempotency-Key': 'r-1' });
    await first.app.close();

    const second = await start({ dataFile });
    expect((await second.call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_997_500);
    const repeat = await second.call('POST', path, body, { 'Idempotency-Key': 'r-1' });
    expect(repeat.body).toEqual(original.body);
    expect(repeat.headers.get('x-served-from-cache')).toBe('true');
    expect((await second.call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_997_500);
  });

  it("takes the nightly extract in the import format, equal to the demo data right after seeding", async () => {
    const { call, base } = await start();
    const extract = (await call('GET', '/__sim/extract')).body;
    expect(Date.parse(extract.corte)).not.toBeNaN();
    expect(extract.socios.map((s: Loose) => s.rut)).toEqual(DEMO_MEMBERS.map((m) => m.rut));
    const day = (n: number) => addDaysWire(TODAY, n);
    for (const member of DEMO_MEMBERS) {
      const socio = extract.socios.find((s: Loose) => s.rut === member.rut);
      expect(socio).toMatchObject({ nombre: member.name, correo: member.email });
      expect(socio.cuenta).toEqual(member.account);
      for (const p of member.products) {
        const prod = socio.productos.find((x: Loose) => x.numeroProducto === p.numeroProducto);
        expect(prod).toMatchObject({ familia: p.family, permiteAbono: p.permiteAbono ?? false, permiteMultipleAbono: p.permiteMultipleAbono ?? false, montoMinimoAbonoMultiple: p.montoMinimoAbonoMultiple ?? 0 });
        if (p.vigenciaAbonoInDays !== undefined) expect(prod.fechaVigenciaAbono).toBe(day(p.vigenciaAbonoInDays));
        if (p.family === 'AH') expect(prod.saldo).toBe(p.saldo);
        if (p.family === 'TC') expect(prod).toMatchObject({ deudaTotal: p.deudaTotal, cupoTotal: p.cupoTotal, fechaFacturacion: day(-p.facturadoHaceDias!) });
        const unpaid = p.instalments.filter((c) => c.monto > 0);
        expect(prod.cuotas).toEqual(
          unpaid.map((c) => ({ numeroCuota: c.numeroCuota, monto: c.monto, montoPendiente: c.monto, pagoMinimo: c.pagoMinimo ?? c.monto, fechaVencimiento: day(c.dueInDays), ...(c.medioPago ? { medioPago: c.medioPago } : {}) })),
        );
      }
    }
    const page = await fetch(`${base}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<caption>Socios (clientes)</caption>');
  });

  describe('as strict as Fineract (apache/fineract 1.10.0-214)', () => {
    const withdrawalOf = (cv: Loose) => `/savingsaccounts/${cv.id}/transactions?command=withdrawal`;
    const body = (extra: Record<string, unknown> = {}) => ({ ...DATE, transactionDate: '10 March 2026', transactionAmount: 1_000, paymentTypeId: 1, ...extra });

    it('lists its payment types and refuses another with 404 error.msg.payment.type.invalid (PaymentDetailWritePlatformServiceJpaRepositoryImpl, PaymentTypeNotFoundException)', async () => {
      const { call } = await start({ paymentTypes: [{ id: 7, name: 'Webpay' }] });
      const { cv, pc } = await camila(call);
      expect((await call('GET', '/paymenttypes')).body).toMatchObject([{ id: 7, name: 'Webpay' }]);
      const refused = await call('POST', withdrawalOf(cv), body({ paymentTypeId: 1 }), { 'Idempotency-Key': 'pt-1' });
      expect(refused.status).toBe(404);
      expect(refused.body.errors[0]).toMatchObject({ userMessageGlobalisationCode: 'error.msg.payment.type.invalid' });
      const repayment = await call('POST', `/loans/${pc.id}/transactions?command=repayment`, body({ paymentTypeId: 999 }));
      expect(repayment.status).toBe(404);
      expect((await call('POST', withdrawalOf(cv), body({ paymentTypeId: 7 }))).status).toBe(200);
    });

    it('reads a batch item’s key only under the exact header name Idempotency-Key (IdempotencyStoreBatchFilter)', async () => {
      const { call } = await start();
      const { cv } = await camila(call);
      const item = (name: string) => [{ requestId: 1, relativeUrl: `savingsaccounts/${cv.id}/transactions?command=withdrawal`, method: 'POST', headers: [{ name, value: 'hb-1' }], body: JSON.stringify(body()) }];
      await call('POST', '/batches?enclosingTransaction=true', item('idempotency-key'));
      await call('POST', '/batches?enclosingTransaction=true', item('idempotency-key'));
      expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_998_000);
      await call('POST', '/batches?enclosingTransaction=true', item('Idempotency-Key'));
      const repeat = await call('POST', '/batches?enclosingTransaction=true', item('Idempotency-Key'));
      expect(repeat.body[0].headers).toContainEqual({ name: 'x-served-from-cache', value: 'true' });
      expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_997_000);
    });

    it('refuses a key longer than the command source column (VARCHAR(50), 0061_add_idempotency_key_to_command_source.xml) and applies nothing', async () => {
      const { call } = await start();
      const { cv } = await camila(call);
      expect((await call('POST', withdrawalOf(cv), body(), { 'Idempotency-Key': 'k'.repeat(51) })).status).toBe(500);
      expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(5_000_000);
      expect((await call('POST', withdrawalOf(cv), body(), { 'Idempotency-Key': 'k'.repeat(50) })).status).toBe(200);
    });

    it('takes only ISO language and country codes as locale: 400 validation.msg.invalid.locale.format (JsonParserHelper.localeFromString)', async () => {
      const { call } = await start();
      const { cv } = await camila(call);
      for (const locale of ['xx', 'english', 'en_XX']) {
        const res = await call('POST', withdrawalOf(cv), body({ locale }));
        expect(res.status).toBe(400);
        expect(res.body.errors[0].userMessageGlobalisationCode).toBe('validation.msg.invalid.locale.format');
      }
      expect((await call('POST', withdrawalOf(cv), body({ locale: 'en_US' }))).status).toBe(200);
    });

    it('refuses a transaction dated after the business day (SavingsAccount.java 400, LoanTransactionValidator.validateTransactionShouldNotBeInTheFuture 403)', async () => {
      const { call } = await start();
      const { cv, pc } = await camila(call);
      const savings = await call('POST', withdrawalOf(cv), body({ transactionDate: '11 March 2026' }));
      expect(savings.status).toBe(400);
      expect(savings.body.errors[0].userMessageGlobalisationCode).toBe('error.msg.savingsaccount.transaction.in.the.future');
      const loan = await call('POST', `/loans/${pc.id}/transactions?command=repayment`, body({ transactionDate: '11 March 2026' }));
      expect(loan.status).toBe(403);
      expect(loan.body.errors[0].userMessageGlobalisationCode).toBe('error.msg.loan.transaction.cannot.be.a.future.date');
      expect((await call('POST', withdrawalOf(cv), body({ transactionDate: '09 March 2026' }))).status).toBe(200);
    });

    it('refuses a loan repayment on a non-working day or a holiday when the tenant does not allow them (Loan.validateRepaymentDateIsOnNonWorkingDay, validateRepaymentDateIsOnHoliday)', async () => {
      // 8 March 2026 is a Sunday; 9 March a holiday here; 10 March (the business day) a working Tuesday.
      const { call } = await start({ calendar: { workingWeekdays: [1, 2, 3, 4, 5], holidays: ['20260309'] } });
      const { pc, cv } = await camila(call);
      const repay = (transactionDate: string) => call('POST', `/loans/${pc.id}/transactions?command=repayment`, body({ transactionDate }));
      const sunday = await repay('08 March 2026');
      expect([sunday.status, sunday.body.errors[0].userMessageGlobalisationCode]).toEqual([403, 'error.msg.loan.application.repayment.date.on.non.working.day']);
      const holiday = await repay('09 March 2026');
      expect([holiday.status, holiday.body.errors[0].userMessageGlobalisationCode]).toEqual([403, 'error.msg.loan.application.repayment.date.on.holiday']);
      expect((await repay('10 March 2026')).status).toBe(200);
      // Savings transactions are not checked by Fineract on these days.
      expect((await call('POST', withdrawalOf(cv), body({ transactionDate: '08 March 2026' }))).status).toBe(200);
    });

    it('books a decimal amount rounded to whole pesos, a half up (Money.roundToMultiplesOf: CLP has 0 decimal places, in multiples of 1)', async () => {
      const { call } = await start();
      const { cv, pc } = await camila(call);
      const up = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, body({ transactionAmount: 1000.5 }));
      const down = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, body({ transactionAmount: '999.49' }));
      expect([up.status, down.status]).toEqual([200, 200]);
      expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(5_000_000 + 1001 + 999);
      const repayment = await call('POST', `/loans/${pc.id}/transactions?command=repayment`, body({ transactionAmount: 85_429.6 }));
      expect(repayment.body.changes.transactionAmount).toBe('85429.6');
      expect((await call('GET', `/loans/${pc.id}`)).body.summary.totalOutstanding).toBe(3 * 85_430);
    });

    it('answers 409 after executeCommand’s retries meet a concurrent write each time, and keeps the 409 under the key (OptimisticLockExceptionMapper, saveResultNewTransaction)', async () => {
      const { call } = await start({ retryWaitsMs: [100, 200] });
      const { cv, tc } = await camila(call);
      await call('POST', '/__sim/faults', { conflictNext: 1 });
      const started = Date.now();
      const first = await call('POST', withdrawalOf(cv), body({ transactionAmount: 1_000 }), { 'Idempotency-Key': 'c-1' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect([first.status, first.headers.get('x-served-from-cache')]).toEqual([409, null]);
      expect(first.body).toMatchObject({ httpStatusCode: '409', userMessageGlobalisationCode: 'error.msg.platform.service.unknown.conflict' });
      const repeat = await call('POST', withdrawalOf(cv), body({ transactionAmount: 1_000 }), { 'Idempotency-Key': 'c-1' });
      expect([repeat.status, repeat.headers.get('x-served-from-cache')]).toEqual([409, 'true']);
      expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(5_000_000);

      // Inside an enclosing batch the 409 rolls the batch back and nothing is kept: the repeat runs.
      await call('POST', '/__sim/faults', { conflictNext: 1 });
      const batch = [
        { requestId: 1, relativeUrl: withdrawalOf(cv).slice(1), method: 'POST', headers: [{ name: 'Idempotency-Key', value: 'cb.0' }], body: JSON.stringify(body({ transactionAmount: 2_000 })) },
        { requestId: 2, relativeUrl: `savingsaccounts/${tc.id}/transactions?command=deposit`, method: 'POST', headers: [{ name: 'Idempotency-Key', value: 'cb.1' }], body: JSON.stringify(body({ transactionAmount: 2_000 })) },
      ];
      const failed = await call('POST', '/batches?enclosingTransaction=true', batch);
      expect(failed.body).toMatchObject([{ requestId: 1, statusCode: 409 }]);
      expect(failed.body[0].headers).not.toContainEqual({ name: 'x-served-from-cache', value: 'true' });
      const again = await call('POST', '/batches?enclosingTransaction=true', batch);
      expect(again.body.map((r: Loose) => [r.statusCode, r.headers])).toEqual([
        [200, []],
        [200, []],
      ]);
      expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(4_998_000);
    });

    it('decides a concurrent repeat of an enclosing batch as Fineract does: the first commits, the repeat waits on its rows and rolls back (BatchApiServiceImpl, executeCommand)', async () => {
      const { call } = await start({ retryWaitsMs: [100, 200] });
      const { cv, tc, pc } = await camila(call);
      const batch = (prefix: string, amount: number) => [
        { requestId: 1, relativeUrl: withdrawalOf(cv).slice(1), method: 'POST', headers: [{ name: 'Idempotency-Key', value: `${prefix}.0` }], body: JSON.stringify(body({ transactionAmount: amount })) },
        { requestId: 2, relativeUrl: `savingsaccounts/${tc.id}/transactions?command=deposit`, method: 'POST', headers: [{ name: 'Idempotency-Key', value: `${prefix}.1` }], body: JSON.stringify(body({ transactionAmount: amount })) },
      ];
      await call('POST', '/__sim/faults', { latencyMs: 400 });
      const answeredAt = <T,>(p: Promise<T>) => p.then((r) => ({ ...r, at: Date.now() }));
      const [first, repeat, other, deposit, held] = await Promise.all([
        answeredAt(call('POST', '/batches?enclosingTransaction=true', batch('p', 10_000))),
        sleep(50).then(() => call('POST', '/batches?enclosingTransaction=true', batch('p', 10_000))),
        sleep(80).then(() => call('POST', '/batches?enclosingTransaction=true', batch('q', 1_000))),
        sleep(100).then(() => call('POST', `/loans/${pc.id}/transactions?command=repayment`, body({ transactionAmount: 1_000 }))),
        // A single write on a row the batch holds waits for its commit, then runs (its retry meets the committed row).
        sleep(100).then(() => answeredAt(call('POST', withdrawalOf(cv), body({ transactionAmount: 500 })))),
      ]);
      expect(held.status).toBe(200);
      expect(held.at).toBeGreaterThanOrEqual(first.at - 50);
      expect(first.body.map((r: Loose) => r.statusCode)).toEqual([200, 200]);
      // The repeat saw no key record (the first had not committed), waited on the rows, met the committed version, and
      // its retry found the first's record: one item, 500, with the last item's headers (served from cache).
      expect(repeat.body).toEqual([
        {
          requestId: 2,
          statusCode: 500,
          headers: [{ name: 'Idempotency-Key', value: 'p.1' }, { name: 'x-served-from-cache', value: 'true' }],
          body: JSON.stringify({ Exception: 'Transaction silently rolled back because it has been marked as rollback-only' }),
        },
      ]);
      // Another payment on the same account rolls back the same way, with no record behind it.
      expect(other.body).toMatchObject([{ requestId: 2, statusCode: 500, headers: [{ name: 'Idempotency-Key', value: 'q.1' }] }]);
      // A write on an account the batch did not touch is not held.
      expect(deposit.status).toBe(200);
      const books = (await call('GET', '/__sim/books')).body;
      expect(books.savings.find((s: Loose) => s.id === cv.id).balance).toBe(5_000_000 - 10_000 - 500);
      expect(books.idempotency.filter((r: Loose) => r.key.startsWith('p.')).map((r: Loose) => r.state)).toEqual(['done', 'done']);
      // Asked again, the batch is answered from the first's records: nothing booked twice.
      await call('POST', '/__sim/faults', { reset: true });
      const third = await call('POST', '/batches?enclosingTransaction=true', batch('p', 10_000));
      expect(third.body.map((r: Loose) => [r.statusCode, r.headers])).toEqual([
        [200, [{ name: 'x-served-from-cache', value: 'true' }]],
        [200, [{ name: 'x-served-from-cache', value: 'true' }]],
      ]);
      expect((await call('GET', `/savingsaccounts/${cv.id}`)).body.summary.accountBalance).toBe(5_000_000 - 10_000 - 500);
    });

    it('answers a second undo and an undo below zero as Fineract does (SavingsAccountWritePlatformServiceJpaRepositoryImpl.undoTransaction, SavingsAccount.validateAccountBalanceDoesNotBecomeNegative)', async () => {
      const { call } = await start();
      const { cv } = await camila(call);
      const deposit = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, body({ transactionAmount: 10_000 }));
      await call('POST', withdrawalOf(cv), body({ transactionAmount: 5_005_000 }));
      const below = await call('POST', `/savingsaccounts/${cv.id}/transactions/${deposit.body.resourceId}?command=undo`, {});
      expect(below.status).toBe(400);
      expect(below.body.errors[0].userMessageGlobalisationCode).toBe('validation.msg.savingsaccount.undotransaction.results.in.balance.going.negative');
      const small = await call('POST', `/savingsaccounts/${cv.id}/transactions?command=deposit`, body({ transactionAmount: 1 }));
      expect((await call('POST', `/savingsaccounts/${cv.id}/transactions/${small.body.resourceId}?command=undo`, {})).status).toBe(200);
      const again = await call('POST', `/savingsaccounts/${cv.id}/transactions/${small.body.resourceId}?command=undo`, {});
      expect(again.status).toBe(503);
      expect(again.body.errors[0].userMessageGlobalisationCode).toBe('error.msg.saving.account.trasaction.update.notallowed');
    });
  });
});
