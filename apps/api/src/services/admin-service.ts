import { operationsOf } from '../repositories/core-operation-repository';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import type { Db } from '../db/client';
import { appendAudit, auditOfTransaction, latestAudit } from '../repositories/audit-repository';
import { authorizationsOf } from '../repositories/authorization-repository';
import { findMemberByRut, unblockCardOf, unblockPasswordOf } from '../repositories/member-repository';
import { findTransaction, itemsOf, voucherRowOf } from '../repositories/transaction-repository';
import { attemptsOf } from '../repositories/webpay-attempt-repository';

export type AdminService = ReturnType<typeof createAdminService>;

/** What an operator does for a member who calls the cooperative: unblock, and look a payment up. */
export function createAdminService(db: Db) {
  async function memberOf(rutInput: string): Promise<{ id: string; rut: string } | null> {
    const rut = canonicalRut(rutInput);
    const member = rut ? await findMemberByRut(db, rut) : null;
    return member ? { id: member.id, rut: member.rut } : null;
  }

  return {
    async unblockPassword(rutInput: string, requestId: string): Promise<boolean> {
      const member = await memberOf(rutInput);
      if (!member) return false;
      await db.transaction(async (tx) => {
        await unblockPasswordOf(tx, member.id);
        await appendAudit(tx, { kind: 'admin.clave.desbloqueada', rutMasked: maskRut(member.rut), requestId });
      });
      return true;
    },

    async unblockCard(rutInput: string, requestId: string): Promise<boolean> {
      const member = await memberOf(rutInput);
      if (!member) return false;
      return db.transaction(async (tx) => {
        if (!(await unblockCardOf(tx, member.id))) return false;
        await appendAudit(tx, { kind: 'admin.tarjeta.desbloqueada', rutMasked: maskRut(member.rut), requestId });
        return true;
      });
    },

    /** The latest audit events, newest first, optionally of one kind. */
    audit: (kind: string | undefined, limit: number) => latestAudit(db, kind, limit),

    /** A transaction with its lines, second-factor requests, Webpay attempts, voucher and audit trail. */
    async transaction(idTransaccion: string) {
      const trx = await findTransaction(db, idTransaccion);
      if (!trx) return null;
      const [items, auths, attempts, core, voucher, audit] = await Promise.all([
        itemsOf(db, idTransaccion),
        authorizationsOf(db, idTransaccion),
        attemptsOf(db, idTransaccion),
        operationsOf(db, idTransaccion),
        voucherRowOf(db, idTransaccion),
        auditOfTransaction(db, idTransaccion),
      ]);
      const { hostTokenHash: _secret, ...visible } = trx;
      return { transaccion: visible, lineas: items, autorizaciones: auths, webpay: attempts, core, comprobante: voucher, auditoria: audit };
    },
  };
}
