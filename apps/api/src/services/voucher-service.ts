import type { Pago } from '@pago/domain/call-consultar-pago';
import { toParameterMap } from '@pago/domain/parameters';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedPerHandle } from '../db/prepared';
import { transactions, vouchers } from '../db/schema';
import { listParameters } from '../repositories/parameters-repository';
import { touchSession } from './session-service';

export type VoucherResult = { ok: true; pagos: Pago[] } | { ok: false; codigo: string };

export type VoucherService = ReturnType<typeof createVoucherService>;

/**
 * The transaction and its voucher (one per transaction, unique) in one read, of the session's own transactions only;
 * no database transaction is needed for a single statement.
 */
const voucherOfSession = preparedPerHandle('voucher_of_session', (db) =>
  db
    .select({ status: transactions.status, payload: vouchers.payload })
    .from(transactions)
    .leftJoin(vouchers, eq(vouchers.idTransaccion, transactions.idTransaccion))
    .where(and(eq(transactions.idTransaccion, sql.placeholder('idTransaccion')), eq(transactions.sessionId, sql.placeholder('sessionId')))),
);

export function createVoucherService(db: Db) {
  return {
    /**
     * Call 7: a voucher is answered only to the session that created the transaction; any other id, guessed or
     * someone else's, is simply not found (516), so the answer tells nothing about other members' payments.
     */
    async query(token: string, idTransaccion: string): Promise<VoucherResult> {
      const params = toParameterMap(await listParameters(db));
      const session = await touchSession(db, token, null, Number(params.sessionTimeOut ?? 5));
      if (!session) return { ok: false, codigo: '476' };
      // Ids are 32 hex characters (selection-service); anything else is not found, and never reaches the SQL.
      if (!/^[0-9a-f]{32}$/.test(idTransaccion)) return { ok: false, codigo: '516' };
      const [trx] = await voucherOfSession(db).execute({ idTransaccion, sessionId: session.id });
      if (!trx) return { ok: false, codigo: '516' };
      if (trx.status === 'pending') return { ok: false, codigo: '509' };
      if (trx.status !== 'paid') return { ok: false, codigo: '516' };
      const pagos = trx.payload as Pago[] | null;
      return pagos ? { ok: true, pagos } : { ok: false, codigo: '516' };
    },
  };
}
