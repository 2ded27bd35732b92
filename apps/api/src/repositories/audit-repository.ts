import { AsyncLocalStorage } from 'node:async_hooks';
import { maskRut } from '@pago/domain/rut';
import type { AuditEventKind } from '@pago/domain/state-words';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { auditLog, members, transactions } from '../db/schema';

export interface AuditEvent {
  /** Only a kind the console has words for (state-words.ts). */
  kind: AuditEventKind;
  /** Already masked: the audit trail never holds a full RUT. */
  rutMasked?: string | null;
  requestId?: string | null;
  detail?: Record<string, unknown>;
}

// jsonb holds neither the NUL character nor a lone UTF-16 surrogate: PostgreSQL refuses the whole row. Text a
// client sent (call 11's reports) may carry either, so they become U+FFFD instead of failing the call.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function storable(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\ufffd').replace(LONE_SURROGATE, '\ufffd');
  if (Array.isArray(value)) return value.map(storable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)]));
  return value;
}

/** What browsers report through call 11: the only lines the trail lets go, after their retention. */
export const BROWSER_REPORT_KIND = 'navegador.log';

/** Removes browser reports older than `days` days; server events are never removed (migration 0009's trigger). */
export async function pruneBrowserReports(db: DbOrTx, days: number): Promise<number> {
  // Through the owner's function: the API's role may only insert into the trail (decision 042).
  const { rows } = (await db.execute(sql`select prune_browser_reports(${days}::integer) as removed`)) as unknown as { rows: { removed: number }[] };
  return Number(rows[0]?.removed ?? 0);
}

/**
 * Who is acting in this request (an operator's name, or `token NAME`), set once the operator API let the call through
 * (operator/access.ts): every line the request writes names them, so no service has to pass it along.
 */
export const auditActor = new AsyncLocalStorage<{ operador?: string; motivo?: string }>();

/** The reason the operator gave for this request's action: every line it writes keeps it (see appendAudit). */
export function recordReason(motivo: string | undefined): void {
  const store = auditActor.getStore();
  if (store && motivo) store.motivo = motivo;
}

/** Appends a line to the append-only audit trail, in the caller's transaction when given one. */
export async function appendAudit(db: DbOrTx, event: AuditEvent): Promise<void> {
  const { operador, motivo } = auditActor.getStore() ?? {};
  const given = event.detail ?? {};
  const detail: Record<string, unknown> = { ...given, ...(operador && !('operador' in given) && { operador }), ...(motivo && !('motivo' in given) && { motivo }) };
  // An event about a transaction is about its member: it carries their masked RUT when the caller named none, so
  // the auditor finds every card event by RUT (one place, not each of the payment paths).
  const idTransaccion = typeof detail.idTransaccion === 'string' ? detail.idTransaccion : null;
  const rutMasked = event.rutMasked ?? (idTransaccion ? await maskedRutOfTransaction(db, idTransaccion) : null);
  await db.insert(auditLog).values({
    kind: event.kind,
    rutMasked,
    requestId: event.requestId ?? null,
    detail: storable(detail) as Record<string, unknown>,
  });
}

/** The masked RUT of the member whose transaction this is, or null. */
async function maskedRutOfTransaction(db: DbOrTx, idTransaccion: string): Promise<string | null> {
  const [row] = await db.select({ rut: members.rut }).from(transactions).innerJoin(members, eq(members.id, transactions.memberId)).where(eq(transactions.idTransaccion, idTransaccion));
  return row ? maskRut(row.rut) : null;
}

/** The latest audit lines, newest first, optionally of one kind. */
export function latestAudit(db: DbOrTx, kind: string | undefined, limit: number) {
  return db
    .select()
    .from(auditLog)
    .where(kind ? eq(auditLog.kind, kind) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

/** Every audit line that names a transaction, oldest first. */
export function auditOfTransaction(db: DbOrTx, idTransaccion: string) {
  return db.select().from(auditLog).where(sql`${auditLog.detail}->>'idTransaccion' = ${idTransaccion}`).orderBy(asc(auditLog.at));
}

export interface AuditFilter {
  kind?: string | undefined;
  /** Part of the operator's name as the trail writes it (detail.operador, aprobadoPor or rechazadoPor), any case. */
  operador?: string | undefined;
  /**
   * A member's RUT (canonical): the lines under its mask, and every line about a transaction they paid for or that
   * paid for them (a payer's events are written under the payer's RUT, the beneficiary's under theirs).
   */
  rut?: string | undefined;
  idTransaccion?: string | undefined;
  /** Part of the kind, the RUT or any value of the detail, any case. */
  texto?: string | undefined;
  /** From and until these days in Santiago, 'YYYY-MM-DD', both included. */
  desde?: string | undefined;
  hasta?: string | undefined;
}

/** `text` as a LIKE pattern that matches it anywhere, its own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The audit lines matching every given filter, newest first. */
export function filteredAudit(db: DbOrTx, filter: AuditFilter, limit: number) {
  const operador = filter.operador ? containing(filter.operador) : null;
  const texto = filter.texto ? containing(filter.texto) : null;
  const conditions = [
    filter.kind ? eq(auditLog.kind, filter.kind) : undefined,
    operador
      ? sql`(${auditLog.detail}->>'operador' ilike ${operador} or ${auditLog.detail}->>'aprobadoPor' ilike ${operador} or ${auditLog.detail}->>'rechazadoPor' ilike ${operador})`
      : undefined,
    filter.rut
      ? sql`(${auditLog.rutMasked} = ${maskRut(filter.rut)} or ${auditLog.detail}->>'idTransaccion' in (select ${transactions.idTransaccion} from ${transactions} inner join ${members} on ${members.id} = ${transactions.memberId} where ${members.rut} = ${filter.rut} or ${transactions.payerRut} = ${filter.rut}))`
      : undefined,
    filter.idTransaccion ? sql`${auditLog.detail}->>'idTransaccion' = ${filter.idTransaccion}` : undefined,
    // The detail's values, not its keys' JSON punctuation: 'reembolso' finds the kind, 'Ana' an operator's name.
    texto
      ? sql`(${auditLog.kind} ilike ${texto} or coalesce(${auditLog.rutMasked}, '') ilike ${texto} or exists (select 1 from jsonb_each_text(${auditLog.detail}) d where d.value ilike ${texto}))`
      : undefined,
    filter.desde ? sql`(${auditLog.at} at time zone 'America/Santiago')::date >= ${filter.desde}::date` : undefined,
    filter.hasta ? sql`(${auditLog.at} at time zone 'America/Santiago')::date <= ${filter.hasta}::date` : undefined,
  ];
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

/** Every kind of event the trail holds, for the auditor's list. */
export async function auditKinds(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectDistinct({ kind: auditLog.kind }).from(auditLog).orderBy(asc(auditLog.kind));
  return rows.map((r) => r.kind);
}
