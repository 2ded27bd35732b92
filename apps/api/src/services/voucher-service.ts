import type { Pago } from '@pago/domain/schemas/call-consultar-pago';
import { toParameterMap } from '@pago/domain/parameters';
import type { Db } from '../db/client';
import { listParameters } from '../repositories/parameters-repository';
import type { Verificacion } from '@pago/domain/schemas/answers';
import { maskedRut, voucherOf } from '@pago/domain/voucher';
import { usedFactorOf } from '../repositories/authorization-repository';
import { ofSessionWithVoucher, voucherByCode } from '../repositories/transaction-repository';
import { refuse, type Refusal } from './refusal';
import { touchSession } from './session-service';

export type VoucherResult = { ok: true; pagos: Pago[]; verificationCode: string | null; factor: 1 | 2 | null } | Refusal;
export type VerificationResult = { ok: true; verificacion: Verificacion } | Refusal;

export type VoucherService = ReturnType<typeof createVoucherService>;

export function createVoucherService(db: Db) {
  return {
    /**
     * Call 7: a voucher is answered only to the session that created the transaction; any other id, guessed or
     * someone else's, is simply not found (516), so the answer tells nothing about other members' payments.
     */
    async query(token: string, idTransaccion: string): Promise<VoucherResult> {
      const params = toParameterMap(await listParameters(db));
      const session = await touchSession(db, token, null, Number(params.sessionTimeOut ?? 5));
      if (!session) return refuse('476');
      // Ids are 32 hex characters (selection-service); anything else is not found, and never reaches the SQL.
      if (!/^[0-9a-f]{32}$/.test(idTransaccion)) return refuse('516');
      const trx = await ofSessionWithVoucher(db, idTransaccion, session.id);
      if (!trx) return refuse('516');
      if (trx.status === 'pending') return refuse('509');
      if (trx.status !== 'paid' || !trx.pagos) return refuse('516');
      return { ok: true, pagos: trx.pagos, verificationCode: trx.verificationCode, factor: await usedFactorOf(db, idTransaccion) };
    },

    /**
     * The public proof of a voucher, for its verification code: when and how much was paid, how, for which products
     * (masked) and whose (masked), nothing else of the member. Any other code is not found (516).
     */
    async verify(code: string): Promise<VerificationResult> {
      const found = await voucherByCode(db, code);
      const voucher = voucherOf(found?.pagos ?? []);
      const first = found?.pagos[0];
      if (!voucher || !first) return refuse('516');
      return {
        ok: true,
        verificacion: {
          fecha: first.fechaPago,
          hora: first.horaPago,
          monto: voucher.total,
          medioPago: first.medioPago,
          productos: voucher.products.map((p) => ({ descripcion: p.name, numero: p.number })),
          // The member whose products were paid, masked as on the voucher itself.
          rutSocio: maskedRut(first.rutDeudor),
          registrado: true,
          // From the approval of its reversal on, the voucher no longer proves a payment.
          anulado: found.status === 'reversing' || found.status === 'reversed',
        },
      };
    },
  };
}
