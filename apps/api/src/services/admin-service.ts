import { reversalView } from './payment-reversal';
import { operationsOf } from '../repositories/core-operation-repository';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import type { Db } from '../db/client';
import { appendAudit, auditOfTransaction } from '../repositories/audit-repository';
import { maskEmail } from '@pago/domain/call-consultar-pago';
import { devicesOfMember } from '../repositories/authoriser-repository';
import { authorizationsOf } from '../repositories/authorization-repository';
import { cardStateOf, findMemberByRut, unblockCardOf, unblockPasswordOf } from '../repositories/member-repository';
import { findTransaction, itemsWithProductOf, latestOfMember, voucherRowOf } from '../repositories/transaction-repository';
import type { AuthorizationStatus, CoreOperationStatus, ItemStatus, TransactionStatus, WebpayAttemptStatus } from '@pago/domain/payment-states';
import type { TransactionView } from '@pago/domain/schemas/admin';
import { attemptsOf } from '../repositories/webpay-attempt-repository';
import { paidForOthers, payerOf } from '../repositories/payment-search-repository';
import { maskAccount } from './payment-service';

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

    /** What a call-centre agent sees of a member: blocks, devices, the latest transactions and whether each has a voucher. */
    async member(rutInput: string, now: Date) {
      const rut = canonicalRut(rutInput);
      const member = rut ? await findMemberByRut(db, rut) : null;
      if (!member) return null;
      const card = await cardStateOf(db, member.id);
      const devices = await devicesOfMember(db, member.id);
      const trxs = await latestOfMember(db, member.id, 50);
      const forOthers = await paidForOthers(db, member.id, member.rut, 50);
      const lockedUntil = member.passwordLockedUntil && member.passwordLockedUntil > now ? member.passwordLockedUntil : null;
      return {
        rut: maskRut(member.rut),
        nombre: member.name,
        correo: member.email ? maskEmail(member.email) : null,
        clave: member.passwordHash === null ? ('sin clave' as const) : member.passwordBlockedAt && (!member.passwordLockedUntil || lockedUntil) ? ('bloqueada' as const) : ('activa' as const),
        claveBloqueadaHasta: lockedUntil,
        tarjeta: !card ? ('sin tarjeta' as const) : card.blockedAt ? ('bloqueada' as const) : ('activa' as const),
        dispositivos: devices,
        transacciones: trxs.map(({ comprobante, estado, ...t }) => ({ ...t, estado: estado as TransactionStatus, comprobante: comprobante !== null })),
        // A payer's debits for another member's products live on that member's transactions: listed here too.
        pagosATerceros: forOthers.map(({ rutSocio, cuenta, estado, ...t }) => ({ ...t, estado: estado as TransactionStatus, socio: maskRut(rutSocio), cuentaDebitada: cuenta ? maskAccount(cuenta) : null })),
      };
    },

    /** A transaction as the agent reads it: its lines under their products, every attempt, the core, the voucher, the trail. */
    async transaction(idTransaccion: string): Promise<TransactionView | null> {
      const trx = await findTransaction(db, idTransaccion);
      if (!trx) return null;
      const [items, auths, attempts, core, voucher, audit, payer, anulacion] = await Promise.all([
        itemsWithProductOf(db, idTransaccion),
        authorizationsOf(db, idTransaccion),
        attemptsOf(db, idTransaccion),
        operationsOf(db, idTransaccion),
        voucherRowOf(db, idTransaccion),
        auditOfTransaction(db, idTransaccion),
        payerOf(db, idTransaccion),
        reversalView(db, idTransaccion),
      ]);
      // The columns' CHECK lists hold the domain's states (payment-states.ts), so these casts name what is there.
      return {
        transaccion: {
          idTransaccion: trx.idTransaccion,
          familia: trx.family,
          total: trx.total,
          estado: trx.status as TransactionStatus,
          medioPago: trx.medioPago,
          creada: trx.createdAt,
          cerrada: trx.settledAt,
        },
        // The payer's full RUT stays here: the console is told it masked, with the account it debited.
        pagador: payer ? { rut: maskRut(payer.rut), nombre: payer.nombre, cuentaDebitada: payer.cuenta ? maskAccount(payer.cuenta) : null, esElSocio: payer.titular } : null,
        lineas: items.map(({ item, numeroProducto, family }) => ({
          id: item.id,
          familia: family,
          numeroProducto,
          numeroCuota: item.numeroCuota,
          monto: item.monto,
          fechaVencimiento: item.fechaVencimiento,
          autorizacion: item.authorizationCode,
          estado: item.status as ItemStatus,
        })),
        autorizaciones: auths.map((a) => ({ factor: a.factor === 2 ? 2 : 1, estado: a.status as AuthorizationStatus, monto: a.amount, creada: a.createdAt, decidida: a.decidedAt })),
        webpay: attempts.map((w) => ({
          ordenCompra: w.buyOrder,
          estado: w.status as WebpayAttemptStatus,
          monto: w.stores.reduce((sum, store) => sum + store.amount, 0),
          creado: w.createdAt,
          resuelto: w.settledAt,
        })),
        core: core.map((op) => ({
          clave: op.key,
          tipo: op.kind,
          estado: op.status as CoreOperationStatus,
          monto: op.amount,
          intentos: op.attempts,
          motivo: op.lastError,
          creada: op.createdAt,
          registrada: op.bookedAt,
        })),
        comprobante: voucher ? { emitido: voucher.createdAt } : null,
        anulacion,
        auditoria: audit,
      };
    },
  };
}
