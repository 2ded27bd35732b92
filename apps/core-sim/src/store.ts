import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { addDaysWire } from '@pago/domain/dates';
import { DEMO_MEMBERS, type DemoMember, type DemoProduct } from '@pago/domain/demo-members';
import { kindOf, type Family, type FamilyOfKind } from '@pago/domain/families';

/** A date as the core keeps it: wire `yyyymmdd`. */
export type Wire = string;

/** Product fields the core holds for the nightly extract but Fineract does not show. */
export interface ProductMeta {
  familia: Family;
  permiteAbono: boolean;
  permiteMultipleAbono: boolean;
  montoMinimoAbonoMultiple: number;
  fechaVigenciaAbono?: Wire;
  numeroCuotasPactadas: number;
}

export interface Client {
  id: number;
  externalId: string;
  displayName: string;
  email: string;
  officeId: number;
}

export interface TransferRef {
  transferId: number;
}

export interface SavingsTx {
  id: number;
  type: 'deposit' | 'withdrawal';
  amount: number;
  date: Wire;
  reversed: boolean;
  receiptNumber?: string;
  paymentTypeId?: number;
  note?: string;
  transfer?: TransferRef;
  submittedAt: string;
}

/** A share subscription instalment (CP) or a billed card statement (TC): what a deposit pays. */
export interface PlanInstalment {
  numeroCuota: number;
  monto: number;
  pagoMinimo: number;
  dueDate: Wire;
}

export interface CardStatement {
  monto: number;
  pagoMinimo: number;
  dueDate: Wire;
  deudaTotal: number;
  cupoTotal: number;
  fechaFacturacion?: Wire;
}

export interface Savings {
  id: number;
  accountNo: string;
  externalId: string;
  clientId: number;
  productName: string;
  /** CV: the cuenta vista; otherwise the product family it plays. */
  kind: 'CV' | SavingsFamily;
  meta?: ProductMeta;
  plan?: PlanInstalment[];
  statement?: CardStatement;
  transactions: SavingsTx[];
}

export interface Period {
  period: number;
  dueDate: Wire;
  principalDue: number;
  pagoMinimo: number;
  medioPago?: 'CONVENIO';
}

export interface LoanTx {
  id: number;
  type: 'repayment';
  amount: number;
  date: Wire;
  externalId?: string;
  reversed: boolean;
  receiptNumber?: string;
  paymentTypeId?: number;
  note?: string;
  transfer?: TransferRef;
  submittedAt: string;
}

export interface Loan {
  id: number;
  accountNo: string;
  externalId: string;
  clientId: number;
  productName: string;
  meta: ProductMeta;
  periods: Period[];
  transactions: LoanTx[];
}

export interface Transfer {
  id: number;
  fromAccountType: 1 | 2;
  fromAccountId: number;
  toAccountType: 1 | 2;
  toAccountId: number;
  amount: number;
  date: Wire;
  description: string;
  reversed: boolean;
  fromTxId: number;
  toTxId: number;
}

/** One idempotency record: Fineract keys them by key + action + entity (not by account). */
export interface IdempotencyRecord {
  scope: string;
  key: string;
  state: 'running' | 'done' | 'failed';
  statusCode: number;
  body: unknown;
  /** The request's JSON: what Fineract answers (with 425) while the first is still running. */
  request: unknown;
  path: string;
  at: string;
}

export interface WriteLogEntry {
  at: string;
  method: string;
  path: string;
  idempotencyKey: string | null;
  statusCode: number;
  note?: string;
}

export interface Books {
  seededOn: Wire;
  nextId: { client: number; savings: number; loan: number; savingsTx: number; loanTx: number; transfer: number };
  clients: Client[];
  savings: Savings[];
  loans: Loan[];
  transfers: Transfer[];
  idempotency: IdempotencyRecord[];
  writes: WriteLogEntry[];
}

/** The families the core holds as savings accounts (every one but the loans): deposits, shares, card collections. */
export type SavingsFamily = Exclude<Family, FamilyOfKind<'credit'>>;

/**
 * The core's product of each family, as Fineract numbers and names it: loan products for the credits, savings
 * products (1 is the cuenta vista) for the rest. A new family is a new product in the core.
 */
export const CORE_PRODUCT: Readonly<Record<Family, { id: number; name: string }>> = {
  PC: { id: 1, name: 'Crédito de consumo' },
  HI: { id: 2, name: 'Crédito hipotecario' },
  PM: { id: 3, name: 'Crédito MYPE' },
  AH: { id: 2, name: 'Ahorro' },
  CP: { id: 3, name: 'Cuotas de participación' },
  TC: { id: 4, name: 'Recaudación tarjeta de crédito' },
};
export const CUENTA_VISTA_PRODUCT_ID = 1;

const isSavingsFamily = (family: Family): family is SavingsFamily => kindOf(family) !== 'credit';

const pad9 = (n: number) => String(n).padStart(9, '0');

function metaOf(p: DemoProduct, day: (offset: number) => Wire): ProductMeta {
  return {
    familia: p.family,
    permiteAbono: p.permiteAbono ?? false,
    permiteMultipleAbono: p.permiteMultipleAbono ?? false,
    montoMinimoAbonoMultiple: p.montoMinimoAbonoMultiple ?? 0,
    ...(p.vigenciaAbonoInDays === undefined ? {} : { fechaVigenciaAbono: day(p.vigenciaAbonoInDays) }),
    numeroCuotasPactadas: p.numeroCuotasPactadas ?? p.instalments.length,
  };
}

/**
 * The demo members as the core holds them, dates laid out from `today` exactly as the API's seed does
 * (apps/api/src/db/seed.ts), so the API's data and the core's agree.
 */
/** The books on `today`: the demo members, and any others a test adds (in the same shape). */
export function seedBooks(today: Wire, members: readonly DemoMember[] = DEMO_MEMBERS): Books {
  const books: Books = {
    seededOn: today,
    nextId: { client: 1, savings: 1, loan: 1, savingsTx: 1, loanTx: 1, transfer: 1 },
    clients: [],
    savings: [],
    loans: [],
    transfers: [],
    idempotency: [],
    writes: [],
  };
  const day = (offset: number) => addDaysWire(today, offset);
  const submittedAt = new Date().toISOString();
  const openingDeposit = (saldo: number): SavingsTx[] =>
    saldo > 0 ? [{ id: books.nextId.savingsTx++, type: 'deposit', amount: saldo, date: today, reversed: false, note: 'Saldo inicial', submittedAt }] : [];

  for (const member of members) {
    const client: Client = { id: books.nextId.client++, externalId: member.rut, displayName: member.name, email: member.email, officeId: 1 };
    books.clients.push(client);
    if (member.account) {
      const id = books.nextId.savings++;
      books.savings.push({
        id,
        accountNo: member.account.numeroCuenta,
        externalId: member.account.numeroCuenta,
        clientId: client.id,
        productName: 'Cuenta Vista',
        kind: 'CV',
        transactions: openingDeposit(member.account.saldo),
      });
    }
    for (const p of member.products) {
      if (!isSavingsFamily(p.family)) {
        const id = books.nextId.loan++;
        books.loans.push({
          id,
          accountNo: pad9(id),
          externalId: p.numeroProducto,
          clientId: client.id,
          productName: CORE_PRODUCT[p.family].name,
          meta: metaOf(p, day),
          periods: p.instalments.map((c) => ({
            period: c.numeroCuota,
            dueDate: day(c.dueInDays),
            principalDue: c.monto,
            pagoMinimo: c.pagoMinimo ?? c.monto,
            ...(c.medioPago ? { medioPago: c.medioPago } : {}),
          })),
          transactions: [],
        });
        continue;
      }
      const id = books.nextId.savings++;
      const account: Savings = {
        id,
        accountNo: pad9(id),
        externalId: p.numeroProducto,
        clientId: client.id,
        productName: CORE_PRODUCT[p.family].name,
        kind: p.family,
        meta: metaOf(p, day),
        transactions: kindOf(p.family) === 'savings' ? openingDeposit(p.saldo ?? 0) : [],
      };
      if (kindOf(p.family) === 'shares') {
        account.plan = p.instalments.map((c) => ({ numeroCuota: c.numeroCuota, monto: c.monto, pagoMinimo: c.pagoMinimo ?? c.monto, dueDate: day(c.dueInDays) }));
      }
      if (kindOf(p.family) === 'card') {
        const billed = p.instalments[0];
        account.statement = {
          monto: billed?.monto ?? 0,
          pagoMinimo: billed?.pagoMinimo ?? billed?.monto ?? 0,
          dueDate: day(billed?.dueInDays ?? 0),
          deudaTotal: p.deudaTotal ?? billed?.monto ?? 0,
          cupoTotal: p.cupoTotal ?? 0,
          ...(p.facturadoHaceDias === undefined ? {} : { fechaFacturacion: day(-p.facturadoHaceDias) }),
        };
      }
      books.savings.push(account);
    }
  }
  return books;
}

// ---- Derived figures: computed from the live (not reversed) transactions, so an undo restores them by itself.

export function savingsBalance(account: Savings): number {
  return account.transactions.reduce((sum, t) => (t.reversed ? sum : sum + (t.type === 'deposit' ? t.amount : -t.amount)), 0);
}

/** Running balances in booking order, keyed by transaction id. */
export function runningBalances(account: Savings): Map<number, number> {
  const out = new Map<number, number>();
  let balance = 0;
  for (const t of account.transactions) {
    if (!t.reversed) balance += t.type === 'deposit' ? t.amount : -t.amount;
    out.set(t.id, balance);
  }
  return out;
}

/** Money received by a CP or TC account (deposits less withdrawals): what pays its plan or statement. */
export function receivedOn(account: Savings): number {
  return Math.max(0, savingsBalance(account));
}

/** Spreads `paid` over amounts oldest first: what is still outstanding on each. */
export function allocateOldestFirst(amounts: number[], paid: number): number[] {
  let left = paid;
  return amounts.map((amount) => {
    const take = Math.min(amount, left);
    left -= take;
    return amount - take;
  });
}

export function loanPaid(loan: Loan): number {
  return loan.transactions.reduce((sum, t) => (t.reversed ? sum : sum + t.amount), 0);
}

/** Outstanding per period, in schedule order (periods are kept sorted by due date). */
export function loanOutstanding(loan: Loan): number[] {
  return allocateOldestFirst(
    loan.periods.map((p) => p.principalDue),
    loanPaid(loan),
  );
}

export function planOutstanding(account: Savings): number[] {
  return allocateOldestFirst(
    (account.plan ?? []).map((c) => c.monto),
    receivedOn(account),
  );
}

/** What the card still owes: the billed amount, the minimum and the total debt, each less what was paid. */
export function statementOwed(account: Savings): { monto: number; pagoMinimo: number; deudaTotal: number } | null {
  const s = account.statement;
  if (!s) return null;
  const paid = receivedOn(account);
  return { monto: Math.max(0, s.monto - paid), pagoMinimo: Math.max(0, s.pagoMinimo - paid), deudaTotal: Math.max(0, s.deudaTotal - paid) };
}

// ---- Persistence: the whole state in one JSON file, replaced atomically.

export function loadBooks(file: string): Books | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Books;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Writes a temporary file and renames it over the old one, so a crash leaves either the old or the new state. */
export function saveBooks(file: string, books: Books): void {
  mkdirSync(dirname(file), { recursive: true });
  // A write still running when the state is saved has no outcome yet: a restart forgets it, as if never received.
  const stable: Books = { ...books, idempotency: books.idempotency.filter((r) => r.state !== 'running') };
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(stable));
  renameSync(tmp, file);
}
