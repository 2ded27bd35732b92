import { FAMILIES, type Family } from '@pago/domain/families';
import {
  AUTHORIZATION_MOVES,
  CORE_OPERATION_KINDS,
  CORE_OPERATION_MOVES,
  DAY_CLOSE_MOVES,
  ITEM_MOVES,
  OPERATOR_CHANGE_MOVES,
  statesOf,
  TRANSACTION_MOVES,
  WEBPAY_ATTEMPT_MOVES,
  type AuthorizationStatus,
  type CoreOperationKind,
  type CoreOperationStatus,
  type DayCloseStatus,
  type ItemStatus,
  type OperatorChangeStatus,
  type TransactionStatus,
  type WebpayAttemptStatus,
} from '@pago/domain/payment-states';
import { CHANGE_KINDS } from '@pago/domain/operator-roles';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Money is whole CLP in `bigint` columns, read and written as JavaScript numbers: every amount the API writes is
 * checked to stay within Number.MAX_SAFE_INTEGER (`MAX_AMOUNT` in the domain), so no value ever loses a peso.
 */
const money = (name: string) => bigint(name, { mode: 'number' });
/** A CHECK constraint's list of allowed values, written from the domain's table (no value holds a quote). */
const oneOf = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(','));

export const members = pgTable('members', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Canonical RUT, '11111111-1'. */
  rut: text('rut').notNull().unique(),
  name: text('name').notNull(),
  email: text('email'),
  /** Online (internet) password, argon2id. Null when the member never enrolled. */
  passwordHash: text('password_hash'),
  passwordFailures: integer('password_failures').notNull().default(0),
  /** When the password was last blocked; with no `passwordLockedUntil`, the block holds until an operator lifts it. */
  passwordBlockedAt: timestamp('password_blocked_at', { withTimezone: true }),
  /** A block for wrong passwords lifts by itself at this time. */
  passwordLockedUntil: timestamp('password_locked_until', { withTimezone: true }),
  /** Blocks in a row, each within a day of the last: each one lasts twice the one before. */
  passwordLocks: integer('password_locks').notNull().default(0),
  /**
   * A notice the core system attaches to the member's product list (e.g. 47501, 465): the list answers this
   * catalogue code instead of the products until the core system clears it.
   */
  listNoticeCode: text('list_notice_code'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Wrong passwords given for a RUT that has no online password (no member, or a member who never enrolled), counted
 * as a member's are: such a RUT gets the same answers as a member's wrong password, so call 4 tells nobody who is a
 * member. The same columns as the members' own.
 */
export const unknownPayerAttempts = pgTable('unknown_payer_attempts', {
  rut: text('rut').primaryKey(),
  passwordFailures: integer('password_failures').notNull().default(0),
  passwordBlockedAt: timestamp('password_blocked_at', { withTimezone: true }),
  passwordLockedUntil: timestamp('password_locked_until', { withTimezone: true }),
  passwordLocks: integer('password_locks').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Wrong passwords for a RUT (member or not) from one client (its address): three block that RUT for that client only
 * (decision 032), so a stranger's guesses never block the member everywhere. The same columns as the members' own.
 */
export const passwordClientGuards = pgTable(
  'password_client_guards',
  {
    rut: text('rut').notNull(),
    client: text('client').notNull(),
    passwordFailures: integer('password_failures').notNull().default(0),
    passwordBlockedAt: timestamp('password_blocked_at', { withTimezone: true }),
    passwordLockedUntil: timestamp('password_locked_until', { withTimezone: true }),
    passwordLocks: integer('password_locks').notNull().default(0),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.rut, t.client] }), index('password_client_guards_client_idx').on(t.client, t.lastFailureAt)],
);

/**
 * Browsers a member signed in from with the right password (decision 041): an httpOnly cookie holds a random id, only
 * its SHA-256 is kept, per RUT. A block others caused by guessing from elsewhere does not hold on such a browser.
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    deviceHash: text('device_hash').notNull(),
    rut: text('rut').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceHash, t.rut] }), index('trusted_devices_seen_idx').on(t.lastSeenAt)],
);

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    family: text('family').$type<Family>().notNull(),
    numeroProducto: text('numero_producto').notNull().unique(),
    permiteAbono: boolean('permite_abono').notNull().default(false),
    permiteMultipleAbono: boolean('permite_multiple_abono').notNull().default(false),
    montoMinimoAbonoMultiple: money('monto_minimo_abono_multiple').notNull().default(0),
    fechaVigenciaAbono: date('fecha_vigencia_abono', { mode: 'string' }),
    /** Credit card: last billing date. */
    fechaFacturacion: date('fecha_facturacion', { mode: 'string' }),
    deudaTotal: money('deuda_total').notNull().default(0),
    deudaTotalInternacional: money('deuda_total_internacional').notNull().default(0),
    cupoTotal: money('cupo_total').notNull().default(0),
    numeroCuotasPactadas: integer('numero_cuotas_pactadas').notNull().default(0),
    /** Savings account balance (AH); 0 for the other families. */
    saldo: money('saldo').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('products_member_idx').on(t.memberId),
    // From the family table: a new family changes this CHECK, and `npm run db:generate` writes its migration.
    check('products_family_chk', sql`${t.family} in (${oneOf(FAMILIES)})`),
    check('products_saldo_chk', sql`${t.saldo} >= 0`),
  ],
);

/**
 * One row per instalment (credits and participation shares) or per billed statement (credit card: montoPendiente
 * is the billed total, pagoMinimo the minimum payment). Overdue state and days are derived from the due date and
 * the business day, never stored, so they cannot go stale.
 */
export const instalments = pgTable(
  'instalments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    numeroCuota: integer('numero_cuota').notNull(),
    montoOriginal: money('monto_original').notNull(),
    montoPendiente: money('monto_pendiente').notNull(),
    pagoMinimo: money('pago_minimo').notNull().default(0),
    fechaVencimiento: date('fecha_vencimiento', { mode: 'string' }).notNull(),
    /** 'CONVENIO' marks payroll deduction; null for ordinary payment. */
    medioPago: text('medio_pago'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('instalments_product_cuota_uq').on(t.productId, t.numeroCuota),
    check('instalments_pendiente_chk', sql`${t.montoPendiente} >= 0 and ${t.montoPendiente} <= ${t.montoOriginal}`),
  ],
);

/** The cooperative's own checking account (cuenta vista) a member pays from. */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    numeroCuenta: text('numero_cuenta').notNull().unique(),
    saldo: money('saldo').notNull(),
  },
  (t) => [index('accounts_member_idx').on(t.memberId), check('accounts_saldo_chk', sql`${t.saldo} >= 0`)],
);

/** Factor 1: the coordinate card, 50 cells A1..J5 of two digits each. */
export const coordinateCards = pgTable('coordinate_cards', {
  id: uuid('id').primaryKey().defaultRandom(),
  memberId: uuid('member_id')
    .notNull()
    .unique()
    .references(() => members.id),
  serial: text('serial').notNull().unique(),
  cells: jsonb('cells').$type<Record<string, string>>().notNull(),
  failures: integer('failures').notNull().default(0),
  blockedAt: timestamp('blocked_at', { withTimezone: true }),
});

/**
 * Factor 2: a device of the member's mobile authoriser app, named by its ECDSA P-256 public key. A member has at most
 * one device that is not revoked: enrolling another revokes it.
 */
export const authoriserDevices = pgTable(
  'authoriser_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    /** SubjectPublicKeyInfo DER, base64url, as the device sent it. */
    publicKey: text('public_key').notNull(),
    name: text('name').notNull(),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('authoriser_devices_active_idx').on(t.memberId).where(sql`${t.revokedAt} is null`)],
);

/** One-time codes a member's device enrols with: issued by the operator or carried by the nightly load. */
export const authoriserEnrolmentCodes = pgTable('authoriser_enrolment_codes', {
  /** SHA-256 of the code, hex: the code itself is only on the member's letter or screen. */
  codeHash: text('code_hash').primaryKey(),
  memberId: uuid('member_id')
    .notNull()
    .references(() => members.id),
  issuedBy: text('issued_by').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A push waiting to reach AUTHORISER_WEBHOOK_URL: retried with back-off until delivered or its request expires. */
export const authoriserWebhooks = pgTable(
  'authoriser_webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    authorizationId: uuid('authorization_id')
      .notNull()
      .references(() => authorizations.id),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [index('authoriser_webhooks_due_idx').on(t.nextAttemptAt).where(sql`${t.deliveredAt} is null`)],
);

/** Server-side switches and settings (spec §7.1), type 'PE'. */
export const parameters = pgTable('parameters', {
  nombre: text('nombre').primaryKey(),
  valor: text('valor').notNull(),
  tipo: text('tipo').notNull().default('PE'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A member's browsing session: only the token's hash is kept. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    rut: text('rut').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_rut_idx').on(t.rut)],
);

/**
 * A payment attempt. The selection is frozen in its items when it is created; states move
 * pending → paid | rejected | cancelled | expired and never back.
 */
export const transactions = pgTable(
  'transactions',
  {
    /** Unguessable (128 random bits, hex). */
    idTransaccion: text('id_transaccion').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    family: text('family').$type<Family>().notNull(),
    total: money('total').notNull(),
    status: text('status').$type<TransactionStatus>().notNull().default('pending'),
    /** 'CUENTA VISTA' or 'WEBPAY' once a method is chosen. */
    medioPago: text('medio_pago'),
    /** Who pays with the own account (may differ from the member: a third party), once logged in. */
    payerRut: text('payer_rut'),
    accountId: uuid('account_id').references(() => accounts.id),
    /** When the payer's password was checked for this transaction; the second factor must follow soon after. */
    loginAt: timestamp('login_at', { withTimezone: true }),
    /** Card path: hash of the payment host's token issued by /api/pagoexpress/auth for this transaction. */
    hostTokenHash: text('host_token_hash').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('transactions_member_idx').on(t.memberId),
    index('transactions_status_idx').on(t.status, t.createdAt),
    // posting: call 6 asked the core to debit the account and has not yet heard that it did (core-operations.ts).
    check('transactions_status_chk', sql`${t.status} in (${oneOf(statesOf(TRANSACTION_MOVES))})`),
    check('transactions_total_chk', sql`${t.total} > 0`),
  ],
);

/**
 * The authorisation number of an own-account payment: one per payment, never given twice (the core's ids are
 * counted per kind of operation, so a transfer and a repayment can both be its number 1).
 */
export const authorizationNumbers = pgSequence('authorization_numbers', { startWith: 1 });

export const transactionItems = pgTable(
  'transaction_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    idTransaccion: text('id_transaccion')
      .notNull()
      .references(() => transactions.idTransaccion),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    /** Null for a savings deposit. */
    instalmentId: uuid('instalment_id').references(() => instalments.id),
    numeroCuota: integer('numero_cuota').notNull(),
    monto: money('monto').notNull(),
    fechaVencimiento: date('fecha_vencimiento', { mode: 'string' }),
    /** The authorisation number the voucher shows for this line (Webpay's per store, or our own). */
    authorizationCode: text('authorization_code'),
    status: text('status').$type<ItemStatus>().notNull().default('pending'),
  },
  (t) => [
    index('transaction_items_trx_idx').on(t.idTransaccion),
    check('transaction_items_monto_chk', sql`${t.monto} > 0`),
    check('transaction_items_status_chk', sql`${t.status} in (${oneOf(statesOf(ITEM_MOVES))})`),
  ],
);

/**
 * A second-factor request for a transaction: a coordinate challenge (factor 1, three cells) or a push to the
 * mobile authoriser (factor 2). Expires after 120 seconds; used at most once.
 */
export const authorizations = pgTable(
  'authorizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    idTransaccion: text('id_transaccion')
      .notNull()
      .references(() => transactions.idTransaccion),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id),
    factor: integer('factor').notNull(),
    /** Factor 1: the three cells asked, e.g. ["B3","F1","J5"]. */
    cells: jsonb('cells').$type<string[]>(),
    status: text('status').$type<AuthorizationStatus>().notNull().default('pending'),
    /** Factor 2: what the push shows the payer. */
    amount: money('amount').notNull(),
    /** Factor 2: the rest of what the device shows and signs (the debited account, the products, the payer). */
    push: jsonb('push').$type<{ cuenta: string; productos: string[]; rutPagador: string; descripcion: string }>(),
    /** Factor 2: 32 random bytes, base64url, signed with the decision: an old signature fits no other request. */
    nonce: text('nonce'),
    /** Factor 2: the device that decided, and its signature, kept for the audit. */
    deviceId: uuid('device_id').references(() => authoriserDevices.id),
    signature: text('signature'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('authorizations_trx_idx').on(t.idTransaccion, t.createdAt),
    index('authorizations_member_idx').on(t.memberId, t.status),
    check('authorizations_factor_chk', sql`${t.factor} in (1, 2)`),
    check('authorizations_status_chk', sql`${t.status} in (${oneOf(statesOf(AUTHORIZATION_MOVES))})`),
  ],
);

/**
 * One trip to Webpay for a transaction (a reload of the card screen makes another). Looked up by Webpay's token
 * or buy order when the browser comes back; the reconciliation job settles the ones it never came back for.
 */
export const webpayAttempts = pgTable(
  'webpay_attempts',
  {
    /** Webpay's token: none while the attempt is only an intent (`creating`), or when Webpay never gave one. */
    token: text('token').unique(),
    idTransaccion: text('id_transaccion')
      .notNull()
      .references(() => transactions.idTransaccion),
    /** Ours, written with the intent before Webpay is asked (decision 044): it names the attempt from the start. */
    buyOrder: text('buy_order').primaryKey(),
    /** The stores sent: [{ productId, numeroProducto, amount, commerceCode, buyOrder }]. */
    stores: jsonb('stores').$type<WebpayStore[]>().notNull(),
    status: text('status').$type<WebpayAttemptStatus>().notNull().default('creating'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /** The reconciliation does not take it again before this (back-off after a failed or unanswered try). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    /** Reconciliation tries that failed: past a bound the attempt is set aside for the operator. */
    failures: integer('failures').notNull().default(0),
    /** Returns that said the form was left while Webpay still had it open: audited once, then only counted. */
    refusedReturns: integer('refused_returns').notNull().default(0),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('webpay_attempts_trx_idx').on(t.idTransaccion),
    index('webpay_attempts_pending_idx').on(t.status, t.createdAt),
    // refund_due: money Webpay took that cannot be applied, being given back (card-settlement.ts refundDue).
    // set_aside: money Webpay took that could be neither applied nor given back; an operator settles it.
    check('webpay_attempts_status_chk', sql`${t.status} in (${oneOf(statesOf(WEBPAY_ATTEMPT_MOVES))})`),
  ],
);

export interface WebpayStore {
  productId: string;
  numeroProducto: string;
  amount: number;
  commerceCode: string;
  buyOrder: string;
}

/**
 * One operation asked of the core banking system, keyed by its idempotency key: the own-account debit of call 6
 * (`cuenta_vista`, one per try of a transaction) or the credit of one Webpay store line (`abono_webpay`). Written
 * before the core is called, and moved only as core-operations.ts allows, so a crash between is finished later.
 */
export const coreOperations = pgTable(
  'core_operations',
  {
    key: text('key').primaryKey(),
    idTransaccion: text('id_transaccion')
      .notNull()
      .references(() => transactions.idTransaccion),
    kind: text('kind').$type<CoreOperationKind>().notNull(),
    status: text('status').$type<CoreOperationStatus>().notNull().default('pending'),
    amount: money('amount').notNull(),
    /** The products credited: [{ productId, numeroProducto, family, amount }]. */
    lines: jsonb('lines').$type<CoreLineRow[]>().notNull(),
    /** Own account: the cuenta vista debited. */
    sourceAccount: text('source_account'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** The core's own ids of what it booked, per product number. */
    coreRefs: jsonb('core_refs').$type<Record<string, string>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    bookedAt: timestamp('booked_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('core_operations_trx_idx').on(t.idTransaccion),
    index('core_operations_due_idx').on(t.status, t.nextAttemptAt),
    check('core_operations_kind_chk', sql`${t.kind} in (${oneOf(CORE_OPERATION_KINDS)})`),
    check('core_operations_status_chk', sql`${t.status} in (${oneOf(statesOf(CORE_OPERATION_MOVES))})`),
    check('core_operations_amount_chk', sql`${t.amount} > 0`),
  ],
);

/**
 * A business day's close (decision 049): signed by two finance operators (the change that closed it), and reopened,
 * with its reason, by any later change of a state of one of the day's payments. A day with no row is open.
 */
export const dayCloses = pgTable(
  'day_closes',
  {
    /** The business day in Santiago. */
    fecha: date('fecha', { mode: 'string' }).primaryKey(),
    status: text('status').$type<DayCloseStatus>().notNull().default('cerrado'),
    proposedBy: text('proposed_by').notNull(),
    closedBy: text('closed_by').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull().defaultNow(),
    /** The four-eyes change that closed it. */
    changeId: uuid('change_id').notNull(),
    /** What was signed: the totals per family and commerce code of each side. */
    totals: jsonb('totals').$type<Record<string, unknown>>().notNull(),
    reopenedAt: timestamp('reopened_at', { withTimezone: true }),
    reopenReason: text('reopen_reason'),
  },
  (t) => [check('day_closes_status_chk', sql`${t.status} in (${oneOf(statesOf(DAY_CLOSE_MOVES))})`)],
);

export interface CoreLineRow {
  productId: string;
  numeroProducto: string;
  family: Family;
  amount: number;
}

/** What the member was told they paid: written once, in the same database transaction as the money. */
export const vouchers = pgTable('vouchers', {
  id: uuid('id').primaryKey().defaultRandom(),
  idTransaccion: text('id_transaccion')
    .notNull()
    .unique()
    .references(() => transactions.idTransaccion),
  payload: jsonb('payload').notNull(),
  /** What the voucher prints for anyone to check it (/comprobante/verificar/{code}); null on vouchers older than it. */
  verificationCode: text('verification_code').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Captcha solutions already spent: a solution is good for one product list only. Rows past their challenge's
 * expiry are pruned, since an expired challenge is refused anyway.
 */
export const captchaUses = pgTable(
  'captcha_uses',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('captcha_uses_expires_idx').on(t.expiresAt)],
);

/**
 * Sandbox mail sink: without SMTP_URL the e-mails to members land here and /sandbox/outbox shows them, as an SMTP
 * server's mailbox would. Never used when SMTP is configured.
 */
export const outbox = pgTable('outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  attachments: jsonb('attachments').$type<{ filename: string; contentType: string; base64: string }[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * E-mails to members written in the transaction of the change they tell of, and sent by the mail job after it
 * commits (no mail server is waited on inside a transaction): retried with back-off until sent or given up.
 */
export const mailQueue = pgTable(
  'mail_queue',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_queue_due_idx').on(t.nextAttemptAt).where(sql`${t.sentAt} is null`)],
);

/** Append-only: a trigger in the migrations refuses UPDATE and DELETE. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    /** Masked RUT only. */
    rutMasked: text('rut_masked'),
    requestId: text('request_id'),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/**
 * An operator's signed-in console session (decision 034): the cookie carries a random token, only its hash is
 * kept. It ends at `expiresAt` (absolute), after the idle time-out since `lastSeenAt`, or at logout (`endedAt`).
 */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The synchroniser token every state-changing call must echo in `x-csrf-token`. */
    csrfToken: text('csrf_token').notNull(),
    /** The identity provider's `sub`, and the name the audit trail shows. */
    subject: text('subject').notNull(),
    name: text('name').notNull(),
    roles: text('roles').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('operator_sessions_subject_idx').on(t.subject)],
);

/** A sign-in under way at the identity provider: its PKCE verifier and nonce, keyed by the state's hash. */
export const operatorLogins = pgTable('operator_logins', {
  stateHash: text('state_hash').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Roles an administrator gave an operator when the identity provider does not carry them. */
export const operatorRoles = pgTable('operator_roles', {
  subject: text('subject').primaryKey(),
  roles: text('roles').array().notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A machine's token (the nightly load, the CLI): named, scoped, revocable; only the hash is kept. */
export const machineTokens = pgTable('machine_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  tokenHash: text('token_hash').notNull().unique(),
  scopes: text('scopes').array().notNull(),
  /** The name of the person who asked for it; the token acts for them (four eyes: they never approve its proposals). */
  createdBy: text('created_by').notNull(),
  /** That person's subject at the identity provider (null: written by the CLI straight into the database). */
  issuerSubject: text('issuer_subject'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** A token works only once a second person approved it (null: waiting, or never approved). */
  approvedAt: timestamp('approved_at', { withTimezone: true }),
  approvedBy: text('approved_by'),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedBy: text('revoked_by'),
});

/**
 * A change that needs a second person (four eyes): proposed by a maker, applied only when another operator with the
 * right role approves it before `expiresAt`. One pending change per target.
 */
export const operatorChanges = pgTable(
  'operator_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    target: text('target').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<OperatorChangeStatus>().notNull().default('pendiente'),
    makerSubject: text('maker_subject').notNull(),
    makerName: text('maker_name').notNull(),
    checkerSubject: text('checker_subject'),
    checkerName: text('checker_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    result: jsonb('result').$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex('operator_changes_pending_target_idx').on(t.kind, t.target).where(sql`${t.status} = 'pendiente'`),
    index('operator_changes_status_idx').on(t.status, t.createdAt),
    check('operator_changes_kind_chk', sql`${t.kind} in (${oneOf(CHANGE_KINDS)})`),
    check('operator_changes_status_chk', sql`${t.status} in (${oneOf(statesOf(OPERATOR_CHANGE_MOVES))})`),
  ],
);
