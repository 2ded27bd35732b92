/** The core's operations on the books (each one whole or not at all) and Fineract's JSON views of them. */
import { kindOf } from '@pago/domain/families';
import {
  dateArray,
  domainRuleViolation,
  notFound,
  optionalInt,
  optionalString,
  readBody,
  serviceUnavailable,
  validationError,
  parameterError,
  type Json,
} from './fineract';
import {
  CORE_PRODUCT,
  CUENTA_VISTA_PRODUCT_ID,
  loanOutstanding,
  loanPaid,
  planOutstanding,
  runningBalances,
  savingsBalance,
  statementOwed,
  type Books,
  type Loan,
  type LoanTx,
  type Savings,
  type SavingsTx,
  type Transfer,
} from './store';

const savingsProductId = (account: Savings) => (account.kind === 'CV' ? CUENTA_VISTA_PRODUCT_ID : CORE_PRODUCT[account.kind].id);

const CURRENCY = { code: 'CLP', name: 'Chilean Peso', decimalPlaces: 0, inMultiplesOf: 1, displaySymbol: '$', nameCode: 'currency.CLP', displayLabel: 'Chilean Peso ($)' };
const PAYMENT_DETAIL_FIELDS = ['accountNumber', 'checkNumber', 'routingCode', 'receiptNumber', 'bankNumber'];

// ---- Lookups (404 as Fineract's *NotFoundException answer)

export function savingsById(books: Books, id: number): Savings {
  const found = books.savings.find((s) => s.id === id);
  if (!found) throw notFound('error.msg.saving.account.id.invalid', `Savings account with identifier ${id} does not exist`, id);
  return found;
}

export function savingsByExternalId(books: Books, externalId: string): Savings {
  const found = books.savings.find((s) => s.externalId === externalId);
  if (!found) throw notFound('error.msg.saving.account.id.invalid', `Savings account with external identifier ${externalId} does not exist`, externalId);
  return found;
}

export function loanById(books: Books, id: number): Loan {
  const found = books.loans.find((l) => l.id === id);
  if (!found) throw notFound('error.msg.loan.id.invalid', `Loan with identifier ${id} does not exist`, id);
  return found;
}

export function loanByExternalId(books: Books, externalId: string): Loan {
  const found = books.loans.find((l) => l.externalId === externalId);
  if (!found) throw notFound('error.msg.loan.external.id.invalid', `Loan with external identifier ${externalId} does not exist`, externalId);
  return found;
}

const clientOf = (books: Books, clientId: number) => books.clients.find((c) => c.id === clientId)!;

// ---- Writes

const now = () => new Date().toISOString();

function withdrawFrom(books: Books, account: Savings, amount: number, date: string, extra: Partial<SavingsTx>): SavingsTx {
  const balance = savingsBalance(account);
  if (balance - amount < 0) {
    // SavingsAccount.validateAccountBalanceDoesNotBecomeNegative: no fee configured, so the plain code.
    throw domainRuleViolation('error.msg.savingsaccount.transaction.insufficient.account.balance', 'Insufficient account balance.', ['transactionAmount', balance, null, amount]);
  }
  const tx: SavingsTx = { id: books.nextId.savingsTx++, type: 'withdrawal', amount, date, reversed: false, submittedAt: now(), ...extra };
  account.transactions.push(tx);
  return tx;
}

function depositTo(books: Books, account: Savings, amount: number, date: string, extra: Partial<SavingsTx>): SavingsTx {
  const tx: SavingsTx = { id: books.nextId.savingsTx++, type: 'deposit', amount, date, reversed: false, submittedAt: now(), ...extra };
  account.transactions.push(tx);
  return tx;
}

function repay(books: Books, loan: Loan, amount: number, date: string, extra: Partial<LoanTx>): LoanTx {
  if (extra.externalId !== undefined && books.loans.some((l) => l.transactions.some((t) => t.externalId === extra.externalId))) {
    // The column is unique: LoanAccountDomainServiceJpa turns the constraint violation into this 400.
    throw validationError([
      parameterError('validation.msg.loan.transaction.externalId.value.must.be.unique', 'Failed data validation due to: value.must.be.unique.', 'externalId', extra.externalId),
    ]);
  }
  const tx: LoanTx = { id: books.nextId.loanTx++, type: 'repayment', amount, date, reversed: false, submittedAt: now(), ...extra };
  loan.transactions.push(tx);
  return tx;
}

/**
 * The `changes` a payment detail adds to an answer (PaymentDetail.generatePaymentDetail): each detail field sent, in
 * Fineract's order, then the payment type.
 */
function paymentDetailChanges(json: Json): Json {
  const changes: Json = {};
  for (const field of PAYMENT_DETAIL_FIELDS) if (typeof json[field] === 'string') changes[field] = json[field];
  const paymentTypeId = optionalInt(json, 'paymentTypeId');
  if (paymentTypeId !== undefined) changes.paymentTypeId = paymentTypeId;
  return changes;
}

function paymentDetails(json: Json): Partial<SavingsTx> {
  const out: Partial<SavingsTx> = {};
  const receipt = optionalString(json, 'receiptNumber');
  const note = optionalString(json, 'note');
  const paymentTypeId = optionalInt(json, 'paymentTypeId');
  if (receipt !== undefined) out.receiptNumber = receipt;
  if (note !== undefined) out.note = note;
  if (paymentTypeId !== undefined) out.paymentTypeId = paymentTypeId;
  return out;
}

/** POST /savingsaccounts/{id}/transactions?command=deposit|withdrawal */
export function savingsTransaction(books: Books, savingsId: number, command: 'deposit' | 'withdrawal', raw: unknown): Json {
  const account = savingsById(books, savingsId);
  const { json, dates, amounts } = readBody(raw, {
    resource: 'savingsaccount.transaction',
    allowed: ['locale', 'dateFormat', 'transactionDate', 'transactionAmount', 'paymentTypeId', 'note', ...PAYMENT_DETAIL_FIELDS],
    dates: ['transactionDate'],
    amounts: [{ name: 'transactionAmount' }],
    required: ['paymentTypeId'],
    maxLengths: Object.fromEntries(PAYMENT_DETAIL_FIELDS.map((f) => [f, 50])),
  });
  const op = command === 'deposit' ? depositTo : withdrawFrom;
  const tx = op(books, account, amounts.transactionAmount!, dates.transactionDate!, paymentDetails(json));
  const client = clientOf(books, account.clientId);
  // SavingsAccountWritePlatformServiceJpaRepositoryImpl.deposit / withdrawal: the transaction's id, the payment detail's changes.
  return { officeId: client.officeId, clientId: client.id, savingsId: account.id, resourceId: tx.id, changes: paymentDetailChanges(json) };
}

/** POST /savingsaccounts/{id}/transactions/{txId}?command=undo */
export function undoSavingsTransaction(books: Books, savingsId: number, txId: number): Json {
  const account = savingsById(books, savingsId);
  const tx = account.transactions.find((t) => t.id === txId);
  if (!tx) {
    throw notFound('error.msg.saving.account.trasaction.id.invalid', `Savings account transaction with identifier ${txId} does not exist for the savings account ${savingsId}`, txId);
  }
  if (tx.transfer) {
    throw serviceUnavailable('error.msg.saving.account.transfer.transaction.update.not.allowed', `Savings account transaction:${txId} update not allowed as it involves in account transfer`, txId);
  }
  // SavingsAccountWritePlatformServiceJpaRepositoryImpl.undoTransaction: a reversed one is not a deposit or withdrawal
  // that may change (TransactionUpdateNotAllowedException, 503).
  if (tx.reversed) {
    throw serviceUnavailable('error.msg.saving.account.trasaction.update.notallowed', `Savings Account transaction update not allowed with savings identifier ${savingsId} and trasaction identifier ${txId}`, txId);
  }
  // SavingsAccount.validateAccountBalanceDoesNotBecomeNegative: resource savingsaccount + action undotransaction, 400.
  if (tx.type === 'deposit' && savingsBalance(account) - tx.amount < 0) {
    throw validationError([parameterError('validation.msg.savingsaccount.undotransaction.results.in.balance.going.negative', 'The parameter  is invalid.', 'id')]);
  }
  tx.reversed = true;
  const client = clientOf(books, account.clientId);
  // SavingsAccountWritePlatformServiceJpaRepositoryImpl.undoTransaction answers the account, not the transaction, and no changes.
  return { officeId: client.officeId, clientId: client.id, savingsId: account.id, resourceId: account.id };
}

/** POST /loans/{id}/transactions?command=repayment (or by the loan's external id) */
export function loanRepayment(books: Books, loan: Loan, raw: unknown): Json {
  const { json, dates, amounts } = readBody(raw, {
    resource: 'loan.transaction',
    allowed: ['transactionDate', 'transactionAmount', 'externalId', 'note', 'locale', 'dateFormat', 'paymentTypeId', 'loanId', ...PAYMENT_DETAIL_FIELDS],
    dates: ['transactionDate'],
    amounts: [{ name: 'transactionAmount' }],
    positiveInts: ['paymentTypeId'],
    maxLengths: { note: 1000, ...Object.fromEntries(PAYMENT_DETAIL_FIELDS.map((f) => [f, 50])) },
  });
  const externalId = optionalString(json, 'externalId');
  const tx = repay(books, loan, amounts.transactionAmount!, dates.transactionDate!, {
    ...(paymentDetails(json) as Partial<LoanTx>),
    ...(externalId ? { externalId } : {}),
  });
  // LoanWritePlatformServiceJpaRepositoryImpl.makeLoanRepaymentWithChargeRefundChargeType: the fields as sent, then the payment detail's.
  return loanTransactionAnswer(books, loan, tx, json, {
    ...(tx.note === undefined ? {} : { note: tx.note }),
    ...(tx.externalId ? { externalId: tx.externalId } : {}),
    ...paymentDetailChanges(json),
  });
}

/** A loan transaction's answer: its loan's and client's ids, the transaction's, and the fields sent as `changes`. */
function loanTransactionAnswer(books: Books, loan: Loan, tx: LoanTx, json: Record<string, unknown>, more: Json = {}): Json {
  const client = clientOf(books, loan.clientId);
  return {
    officeId: client.officeId,
    clientId: client.id,
    loanId: loan.id,
    resourceId: tx.id,
    resourceExternalId: tx.externalId ?? null,
    changes: {
      transactionDate: json.transactionDate,
      transactionAmount: String(json.transactionAmount),
      locale: json.locale,
      dateFormat: json.dateFormat,
      ...(optionalInt(json, 'paymentTypeId') === undefined ? {} : { paymentTypeId: optionalInt(json, 'paymentTypeId') }),
      ...more,
    },
  };
}

/** POST /loans/{loanId}/transactions/{txId} with transactionAmount 0: Fineract's undo of a loan transaction. */
export function adjustLoanTransaction(books: Books, loanId: number, txId: number, raw: unknown): Json {
  const loan = loanById(books, loanId);
  const tx = loan.transactions.find((t) => t.id === txId);
  if (!tx) throw notFound('error.msg.loan.transaction.id.invalid', `Transaction with identifier ${txId} does not exist for loan with identifier ${loanId}.`, txId);
  const { json, amounts } = readBody(raw, {
    resource: 'loan.transaction',
    allowed: ['transactionDate', 'transactionAmount', 'externalId', 'note', 'locale', 'dateFormat', 'paymentTypeId', 'reversalExternalId', ...PAYMENT_DETAIL_FIELDS],
    dates: ['transactionDate'],
    amounts: [{ name: 'transactionAmount', zeroAllowed: true }],
  });
  if (tx.transfer) {
    throw serviceUnavailable('error.msg.loan.transfer.transaction.update.not.allowed', `Loan transaction:${txId} update not allowed as it involves in account transfer`, txId);
  }
  if (amounts.transactionAmount !== 0) {
    // Re-booking with a new amount (an adjustment) is outside what the simulator plays.
    throw domainRuleViolation('error.msg.loan.transaction.adjust.not.simulated', 'Only an undo (transactionAmount 0) is simulated.', [txId]);
  }
  // Loan.adjustExistingTransaction reverses it whatever it was: undoing a reversed repayment again changes nothing.
  tx.reversed = true;
  // LoanWritePlatformServiceJpaRepositoryImpl.adjustLoanTransaction: with no new transaction, the undone one's ids.
  return loanTransactionAnswer(books, loan, tx, json);
}

/** POST /accounttransfers: savings → loan (toAccountType 1) or savings → savings (2), both legs or neither. */
export function createTransfer(books: Books, raw: unknown): Json {
  const { json, dates, amounts } = readBody(raw, {
    resource: 'accounttransfer',
    allowed: ['locale', 'dateFormat', 'fromOfficeId', 'fromClientId', 'fromAccountType', 'fromAccountId', 'toOfficeId', 'toClientId', 'toAccountType', 'toAccountId', 'transferDate', 'transferAmount', 'transferDescription'],
    dates: ['transferDate'],
    amounts: [{ name: 'transferAmount' }],
    required: ['fromOfficeId', 'fromClientId', 'fromAccountType', 'fromAccountId', 'toOfficeId', 'toClientId', 'toAccountType', 'toAccountId', 'transferDescription'],
    positiveInts: ['fromOfficeId', 'fromClientId', 'fromAccountId', 'toOfficeId', 'toClientId', 'toAccountId'],
    maxLengths: { transferDescription: 200 },
  });
  const types = ['fromAccountType', 'toAccountType'].filter((name) => ![1, 2].includes(Number(json[name])));
  if (types.length > 0) {
    throw validationError(
      types.map((name) => parameterError(`validation.msg.accounttransfer.${name}.is.not.one.of.expected.enumerations`, `The parameter \`${name}\` must be one of [ 1, 2 ] .`, name, json[name], [json[name], 1, 2])),
    );
  }
  const fromType = Number(json.fromAccountType) as 1 | 2;
  const toType = Number(json.toAccountType) as 1 | 2;
  if (fromType !== 2) {
    // The product only pays from savings; a loan as source (refunds of overpayments) is not simulated.
    throw domainRuleViolation('error.msg.accounttransfer.from.loan.not.simulated', 'Transfers from a loan are not simulated.', [json.fromAccountId]);
  }
  const amount = amounts.transferAmount!;
  const date = dates.transferDate!;
  const description = String(json.transferDescription);
  const from = savingsById(books, Number(json.fromAccountId));
  const to = toType === 1 ? loanById(books, Number(json.toAccountId)) : savingsById(books, Number(json.toAccountId));
  if (from.clientId !== Number(json.fromClientId) || to.clientId !== Number(json.toClientId)) {
    throw domainRuleViolation('error.msg.accounttransfer.client.account.mismatch', 'The account does not belong to the client given.', [json.fromClientId, json.toClientId]);
  }
  // The id is taken only once the withdrawal is allowed (the first leg checks the balance before booking), so a
  // refused transfer changes nothing; the second leg cannot fail (no externalId is passed).
  const transferId = books.nextId.transfer;
  const withdrawal = withdrawFrom(books, from, amount, date, { transfer: { transferId }, note: description });
  books.nextId.transfer++;
  const incoming = toType === 1 ? repay(books, to as Loan, amount, date, { transfer: { transferId }, note: description }) : depositTo(books, to as Savings, amount, date, { transfer: { transferId }, note: description });
  const transfer: Transfer = { id: transferId, fromAccountType: 2, fromAccountId: from.id, toAccountType: toType, toAccountId: to.id, amount, date, description, reversed: false, fromTxId: withdrawal.id, toTxId: incoming.id };
  books.transfers.push(transfer);
  // AccountTransfersWritePlatformServiceImpl.create: the transfer's id and the source savings account, nothing else.
  // Fineract numbers the transfer's details and its transaction apart; only transfers create either, so one id here.
  return { savingsId: from.id, resourceId: transferId };
}

// ---- Views (GET answers)

const savingsStatus = { id: 300, code: 'savingsAccountStatusType.active', value: 'Active', submittedAndPendingApproval: false, approved: true, rejected: false, withdrawnByApplicant: false, active: true, closed: false };
const loanStatus = { id: 300, code: 'loanStatusType.active', value: 'Active', pendingApproval: false, waitingForDisbursal: false, active: true, closedObligationsMet: false, closedWrittenOff: false, closedRescheduled: false, closed: false, overpaid: false };
const accountType = (type: 1 | 2) => (type === 1 ? { id: 1, code: 'accountType.loan', value: 'Loan Account' } : { id: 2, code: 'accountType.savings', value: 'Savings Account' });

function transferSummary(books: Books, ref: { transferId: number } | undefined) {
  if (!ref) return undefined;
  const t = books.transfers.find((x) => x.id === ref.transferId)!;
  return { id: t.id, reversed: t.reversed, currency: CURRENCY, transferAmount: t.amount, transferDate: dateArray(t.date), transferDescription: t.description };
}

const paymentDetailData = (tx: { receiptNumber?: string; paymentTypeId?: number }) =>
  tx.paymentTypeId === undefined && tx.receiptNumber === undefined
    ? undefined
    : { id: 0, paymentType: tx.paymentTypeId === undefined ? undefined : { id: tx.paymentTypeId, name: `Tipo ${tx.paymentTypeId}` }, receiptNumber: tx.receiptNumber };

export function savingsView(books: Books, account: Savings, withTransactions: boolean): Json {
  const client = clientOf(books, account.clientId);
  const running = runningBalances(account);
  const live = account.transactions.filter((t) => !t.reversed);
  const view: Json = {
    id: account.id,
    accountNo: account.accountNo,
    externalId: account.externalId,
    clientId: client.id,
    clientName: client.displayName,
    savingsProductId: savingsProductId(account),
    savingsProductName: account.productName,
    fieldOfficerId: 0,
    status: savingsStatus,
    currency: CURRENCY,
    summary: {
      currency: CURRENCY,
      totalDeposits: live.filter((t) => t.type === 'deposit').reduce((s, t) => s + t.amount, 0),
      totalWithdrawals: live.filter((t) => t.type === 'withdrawal').reduce((s, t) => s + t.amount, 0),
      accountBalance: savingsBalance(account),
      availableBalance: savingsBalance(account),
    },
  };
  if (withTransactions) {
    // Fineract lists a savings account's transactions newest first.
    view.transactions = [...account.transactions].reverse().map((t) => ({
      id: t.id,
      transactionType:
        t.type === 'deposit'
          ? { id: 1, code: 'savingsAccountTransactionType.deposit', value: 'Deposit', deposit: true, withdrawal: false }
          : { id: 2, code: 'savingsAccountTransactionType.withdrawal', value: 'Withdrawal', deposit: false, withdrawal: true },
      accountId: account.id,
      accountNo: account.accountNo,
      date: dateArray(t.date),
      currency: CURRENCY,
      amount: t.amount,
      runningBalance: running.get(t.id),
      reversed: t.reversed,
      paymentDetailData: paymentDetailData(t),
      transfer: transferSummary(books, t.transfer),
      submittedOnDate: dateArray(t.date),
      note: t.note,
    }));
  }
  return view;
}

function loanTransactionView(books: Books, loan: Loan, t: LoanTx): Json {
  const client = clientOf(books, loan.clientId);
  return {
    id: t.id,
    officeId: client.officeId,
    type: { id: 2, code: 'loanTransactionType.repayment', value: 'Repayment', repayment: true, disbursement: false },
    date: dateArray(t.date),
    currency: CURRENCY,
    paymentDetailData: paymentDetailData(t),
    amount: t.amount,
    principalPortion: t.amount,
    interestPortion: 0,
    feeChargesPortion: 0,
    penaltyChargesPortion: 0,
    externalId: t.externalId ?? null,
    manuallyReversed: t.reversed,
    loanId: loan.id,
    externalLoanId: loan.externalId,
    transfer: transferSummary(books, t.transfer),
  };
}

export function loanTransactionByExternalId(books: Books, loanId: number, externalId: string): Json {
  const loan = loanById(books, loanId);
  const tx = loan.transactions.find((t) => t.externalId === externalId);
  if (!tx) throw notFound('error.msg.loan.transaction.external.id.invalid', `Transaction with external identifier ${externalId} does not exist`, externalId);
  return loanTransactionView(books, loan, tx);
}

export function loanView(books: Books, loan: Loan, associations: string[]): Json {
  const client = clientOf(books, loan.clientId);
  const outstanding = loanOutstanding(loan);
  const total = loan.periods.reduce((s, p) => s + p.principalDue, 0);
  const totalOutstanding = outstanding.reduce((s, n) => s + n, 0);
  const view: Json = {
    id: loan.id,
    accountNo: loan.accountNo,
    externalId: loan.externalId,
    status: { ...loanStatus, overpaid: loanPaid(loan) > total },
    clientId: client.id,
    clientName: client.displayName,
    clientOfficeId: client.officeId,
    loanProductName: loan.productName,
    currency: CURRENCY,
    principal: total,
    summary: {
      currency: CURRENCY,
      principalDisbursed: total,
      principalPaid: total - totalOutstanding,
      principalOutstanding: totalOutstanding,
      totalExpectedRepayment: total,
      totalRepayment: loanPaid(loan),
      totalOutstanding,
    },
  };
  if (associations.includes('repaymentSchedule') || associations.includes('all')) {
    view.repaymentSchedule = {
      currency: CURRENCY,
      totalOutstanding,
      periods: loan.periods.map((p, i) => ({
        period: p.period,
        dueDate: dateArray(p.dueDate),
        complete: outstanding[i] === 0,
        principalOriginalDue: p.principalDue,
        principalDue: p.principalDue,
        principalPaid: p.principalDue - outstanding[i]!,
        principalOutstanding: outstanding[i],
        interestDue: 0,
        feeChargesDue: 0,
        penaltyChargesDue: 0,
        totalDueForPeriod: p.principalDue,
        totalPaidForPeriod: p.principalDue - outstanding[i]!,
        totalOutstandingForPeriod: outstanding[i],
      })),
    };
  }
  if (associations.includes('transactions') || associations.includes('all')) {
    view.transactions = loan.transactions.map((t) => loanTransactionView(books, loan, t));
  }
  return view;
}

/** A client by its external id (a string) or by Fineract's own id (a number). */
export function clientView(books: Books, by: string | number): Json {
  const client = books.clients.find((c) => (typeof by === 'number' ? c.id === by : c.externalId === by));
  if (!client) throw notFound('error.msg.client.id.invalid', `Client with identifier ${by} does not exist`, by);
  return { id: client.id, accountNo: String(client.id).padStart(9, '0'), externalId: client.externalId, status: { id: 300, code: 'clientStatusType.active', value: 'Active' }, active: true, displayName: client.displayName, officeId: client.officeId, officeName: 'Head Office' };
}

export function clientAccounts(books: Books, clientId: number): Json {
  const client = books.clients.find((c) => c.id === clientId);
  if (!client) throw notFound('error.msg.client.id.invalid', `Client with identifier ${clientId} does not exist`, clientId);
  const loans = books.loans.filter((l) => l.clientId === clientId);
  const savings = books.savings.filter((s) => s.clientId === clientId);
  return {
    loanAccounts: loans.map((l) => {
      const principal = l.periods.reduce((s, p) => s + p.principalDue, 0);
      const balance = loanOutstanding(l).reduce((s, n) => s + n, 0);
      return { id: l.id, accountNo: l.accountNo, externalId: l.externalId, productId: CORE_PRODUCT[l.meta.familia].id, productName: l.productName, status: loanStatus, currency: CURRENCY, loanType: { id: 1, code: 'accountType.individual', value: 'Individual' }, loanCycle: 1, inArrears: false, originalLoan: principal, loanBalance: balance, amountPaid: principal - balance };
    }),
    savingsAccounts: savings.map((s) => ({
      id: s.id,
      accountNo: s.accountNo,
      externalId: s.externalId,
      productId: savingsProductId(s),
      productName: s.productName,
      shortProductName: s.kind,
      status: savingsStatus,
      currency: CURRENCY,
      accountBalance: savingsBalance(s),
      accountType: { id: 1, code: 'accountType.individual', value: 'Individual' },
      depositType: { id: 100, code: 'depositAccountType.savingsDeposit', value: 'Savings' },
    })),
  };
}

export function transferView(books: Books, id: number): Json {
  const t = books.transfers.find((x) => x.id === id);
  if (!t) throw notFound('error.msg.accounttransfer.id.invalid', `Account transfer with identifier ${id} does not exist`, id);
  const from = savingsById(books, t.fromAccountId);
  const to = t.toAccountType === 1 ? loanById(books, t.toAccountId) : savingsById(books, t.toAccountId);
  const party = (clientId: number) => {
    const c = clientOf(books, clientId);
    return { id: c.id, displayName: c.displayName, officeId: c.officeId, officeName: 'Head Office' };
  };
  const office = { id: 1, name: 'Head Office' };
  return {
    id: t.id,
    reversed: t.reversed,
    currency: CURRENCY,
    transferAmount: t.amount,
    transferDate: dateArray(t.date),
    transferDescription: t.description,
    fromOffice: office,
    fromClient: party(from.clientId),
    fromAccountType: accountType(2),
    fromAccount: { id: from.id, accountNo: from.accountNo },
    toOffice: office,
    toClient: party(to.clientId),
    toAccountType: accountType(t.toAccountType),
    toAccount: { id: to.id, accountNo: to.accountNo },
  };
}

// ---- The nightly extract, in the product's import format (apps/api/src/services/import-service.ts)

export function extract(books: Books): Json {
  const socios = books.clients.map((client) => {
    const cuenta = books.savings.find((s) => s.clientId === client.id && s.kind === 'CV');
    const productos: Json[] = [];
    for (const loan of books.loans.filter((l) => l.clientId === client.id)) {
      const outstanding = loanOutstanding(loan);
      productos.push({
        ...productFields(loan.meta, loan.externalId),
        cuotas: loan.periods.flatMap((p, i) =>
          outstanding[i]! > 0
            ? [{ numeroCuota: p.period, monto: p.principalDue, montoPendiente: outstanding[i], pagoMinimo: Math.min(p.pagoMinimo, outstanding[i]!), fechaVencimiento: p.dueDate, ...(p.medioPago ? { medioPago: p.medioPago } : {}) }]
            : [],
        ),
      });
    }
    for (const s of books.savings.filter((x) => x.clientId === client.id && x.kind !== 'CV')) {
      const base = productFields(s.meta!, s.externalId);
      const kind = kindOf(s.meta!.familia);
      if (kind === 'savings') productos.push({ ...base, saldo: savingsBalance(s), cuotas: [] });
      if (kind === 'shares') {
        const outstanding = planOutstanding(s);
        productos.push({
          ...base,
          cuotas: (s.plan ?? []).flatMap((c, i) =>
            outstanding[i]! > 0 ? [{ numeroCuota: c.numeroCuota, monto: c.monto, montoPendiente: outstanding[i], pagoMinimo: Math.min(c.pagoMinimo, outstanding[i]!), fechaVencimiento: c.dueDate }] : [],
          ),
        });
      }
      if (kind === 'card') {
        const st = s.statement!;
        const owed = statementOwed(s)!;
        productos.push({
          ...base,
          deudaTotal: owed.deudaTotal,
          cupoTotal: st.cupoTotal,
          ...(st.fechaFacturacion ? { fechaFacturacion: st.fechaFacturacion } : {}),
          cuotas: owed.monto > 0 ? [{ numeroCuota: 1, monto: st.monto, montoPendiente: owed.monto, pagoMinimo: owed.pagoMinimo, fechaVencimiento: st.dueDate }] : [],
        });
      }
    }
    return {
      rut: client.externalId,
      nombre: client.displayName,
      correo: client.email,
      ...(cuenta ? { cuenta: { numeroCuenta: cuenta.accountNo, saldo: savingsBalance(cuenta) } } : {}),
      productos,
    };
  });
  return { corte: new Date().toISOString(), socios };
}

function productFields(meta: NonNullable<Savings['meta']>, numeroProducto: string): Json {
  return {
    familia: meta.familia,
    numeroProducto,
    permiteAbono: meta.permiteAbono,
    permiteMultipleAbono: meta.permiteMultipleAbono,
    montoMinimoAbonoMultiple: meta.montoMinimoAbonoMultiple,
    ...(meta.fechaVigenciaAbono ? { fechaVigenciaAbono: meta.fechaVigenciaAbono } : {}),
    numeroCuotasPactadas: meta.numeroCuotasPactadas,
  };
}
