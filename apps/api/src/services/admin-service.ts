import { canonicalRut, maskRut } from '@pago/domain/rut';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog, authorizations, coordinateCards, members, transactionItems, transactions, vouchers, webpayAttempts } from '../db/schema';
import { appendAudit } from '../repositories/audit-repository';

export type AdminService = ReturnType<typeof createAdminService>;

/** What an operator does for a member who calls the cooperative: unblock, and look a payment up. */
export function createAdminService(db: Db) {
  async function memberId(rutInput: string): Promise<string | null> {
    const rut = canonicalRut(rutInput);
    if (!rut) return null;
    const [row] = await db.select({ id: members.id }).from(members).where(eq(members.rut, rut));
    return row?.id ?? null;
  }

  return {
    async unblockPassword(rutInput: string, requestId: string): Promise<boolean> {
      const id = await memberId(rutInput);
      if (!id) return false;
      await db.transaction(async (tx) => {
        await tx.update(members).set({ passwordFailures: 0, passwordBlockedAt: null }).where(eq(members.id, id));
        await appendAudit(tx, { kind: 'admin.clave.desbloqueada', rutMasked: maskRut(canonicalRut(rutInput)!), requestId });
      });
      return true;
    },

    async unblockCard(rutInput: string, requestId: string): Promise<boolean> {
      const id = await memberId(rutInput);
      if (!id) return false;
      return db.transaction(async (tx) => {
        const rows = await tx.update(coordinateCards).set({ failures: 0, blockedAt: null }).where(eq(coordinateCards.memberId, id)).returning({ id: coordinateCards.id });
        if (rows.length === 0) return false;
        await appendAudit(tx, { kind: 'admin.tarjeta.desbloqueada', rutMasked: maskRut(canonicalRut(rutInput)!), requestId });
        return true;
      });
    },

    /** The latest audit events, newest first, optionally of one kind. */
    audit(kind: string | undefined, limit: number) {
      return db
        .select()
        .from(auditLog)
        .where(kind ? eq(auditLog.kind, kind) : undefined)
        .orderBy(desc(auditLog.id))
        .limit(limit);
    },

    /** A transaction with its lines, second-factor requests, Webpay attempts, voucher and audit trail. */
    async transaction(idTransaccion: string) {
      const [trx] = await db.select().from(transactions).where(eq(transactions.idTransaccion, idTransaccion));
      if (!trx) return null;
      const [items, auths, attempts, voucher, audit] = await Promise.all([
        db.select().from(transactionItems).where(eq(transactionItems.idTransaccion, idTransaccion)),
        db.select({ factor: authorizations.factor, status: authorizations.status, createdAt: authorizations.createdAt, decidedAt: authorizations.decidedAt }).from(authorizations).where(eq(authorizations.idTransaccion, idTransaccion)).orderBy(asc(authorizations.createdAt)),
        db.select({ buyOrder: webpayAttempts.buyOrder, status: webpayAttempts.status, stores: webpayAttempts.stores, createdAt: webpayAttempts.createdAt, settledAt: webpayAttempts.settledAt }).from(webpayAttempts).where(eq(webpayAttempts.idTransaccion, idTransaccion)),
        db.select({ payload: vouchers.payload, createdAt: vouchers.createdAt }).from(vouchers).where(eq(vouchers.idTransaccion, idTransaccion)),
        db.select().from(auditLog).where(sql`${auditLog.detail}->>'idTransaccion' = ${idTransaccion}`).orderBy(asc(auditLog.at)),
      ]);
      const { hostTokenHash: _secret, ...visible } = trx;
      return { transaccion: visible, lineas: items, autorizaciones: auths, webpay: attempts, comprobante: voucher[0] ?? null, auditoria: audit };
    },
  };
}
