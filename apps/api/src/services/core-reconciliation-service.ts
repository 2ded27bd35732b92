import type { CoreOperationKind, CoreOperationStatus } from '@pago/domain/payment-states';
import type { Db } from '../db/client';
import { bookedReversalsOf, firstKeyOf, operationsOfDay } from '../repositories/core-operation-repository';
import { isLoanInCore, type CoreBanking } from './core-banking';

/** One line of the comparison: our operation and what the core booked under its key. */
export interface CoreReconciliationLine {
  clave: string;
  idTransaccion: string | null;
  tipo: CoreOperationKind | null;
  estadoAqui: CoreOperationStatus | null;
  montoAqui: number | null;
  montoCore: number | null;
  /** 'pendiente': not acknowledged by the core yet (still being posted): not a difference. */
  resultado: 'conciliada' | 'pendiente' | 'falta en el core' | 'falta aquí' | 'monto distinto' | 'anulada';
}

export interface CoreReconciliation {
  fecha: string;
  conciliadas: number;
  diferencias: number;
  lineas: CoreReconciliationLine[];
}

/**
 * The day's comparison of our operations with the core's books, by key: every own-account debit and card credit
 * written here that day (by business date), against what this channel booked that day on the accounts they touch
 * (its payment types and keys: a teller's deposit or another channel's repayment on those accounts is not ours).
 * Matched, missing in the core, missing here (the core moved money under a key we do not have, or that we took as
 * refused), or booked for another amount. The core is read with no database transaction open.
 */
export function createCoreReconciliationService(db: Db, core: CoreBanking) {
  return {
    async reconcileDay(fecha: string): Promise<CoreReconciliation | { unavailable: string }> {
      const ops = await operationsOfDay(db, fecha);
      const accounts = new Map<string, boolean>();
      for (const op of ops) {
        if (op.sourceAccount) accounts.set(op.sourceAccount, false);
        for (const line of op.lines) accounts.set(line.numeroProducto, isLoanInCore(line.family));
      }
      const booked = await core.channelOperations([...accounts].map(([numero, loan]) => ({ numero, loan })));
      if (!booked.ok) return { unavailable: booked.detail };
      const byKey = new Map<string, { debit: number; credit: number }>();
      // Only the day's own: the adapter keeps this channel's payment types and keys; the day is the core's date.
      for (const v of booked.data.filter((op) => !op.reversed && op.date === fecha)) {
        const sums = byKey.get(v.key) ?? { debit: 0, credit: 0 };
        sums[v.direction] += v.amount;
        byKey.set(v.key, sums);
      }
      const lineas: CoreReconciliationLine[] = [];
      const ours = new Set<string>();
      // An operation a booked reversal gave back (decision 050), and the reversal itself: settled, whatever the core shows.
      const reversed = new Set((await bookedReversalsOf(db, [...new Set(ops.map((o) => o.idTransaccion))])).map((r) => firstKeyOf(r.key).replace(/\.x$/, '')));
      for (const op of ops) {
        ours.add(op.key);
        const core = byKey.get(op.key);
        if ((op.kind === 'anulacion' || reversed.has(op.key)) && op.status === 'booked') {
          lineas.push({ clave: op.key, idTransaccion: op.idTransaccion, tipo: op.kind, estadoAqui: op.status, montoAqui: op.amount, montoCore: core ? core.debit || core.credit : null, resultado: 'anulada' });
          continue;
        }
        // The core's side of an own-account payment is the debit of the cuenta vista; of a card credit, the credit.
        const montoCore = core ? (op.kind === 'cuenta_vista' ? core.debit : core.credit) : null;
        const base = { clave: op.key, idTransaccion: op.idTransaccion, tipo: op.kind as CoreReconciliationLine['tipo'], estadoAqui: op.status, montoAqui: op.amount, montoCore };
        // A refused or failed try applied nothing: money under its key is a difference.
        if (op.status === 'refused' || op.status === 'failed') {
          if (montoCore) lineas.push({ ...base, resultado: 'falta aquí' });
          continue;
        }
        if ((montoCore === null || montoCore === 0) && op.status === 'pending') lineas.push({ ...base, resultado: 'pendiente' });
        else if (montoCore === null || montoCore === 0) lineas.push({ ...base, resultado: 'falta en el core' });
        else if (montoCore !== op.amount) lineas.push({ ...base, resultado: 'monto distinto' });
        else lineas.push({ ...base, resultado: 'conciliada' });
      }
      for (const [clave, sums] of byKey) {
        if (ours.has(clave)) continue;
        lineas.push({ clave, idTransaccion: null, tipo: null, estadoAqui: null, montoAqui: null, montoCore: sums.debit || sums.credit, resultado: 'falta aquí' });
      }
      const conciliadas = lineas.filter((l) => l.resultado === 'conciliada' || l.resultado === 'anulada').length;
      const diferencias = lineas.filter((l) => l.resultado !== 'conciliada' && l.resultado !== 'pendiente' && l.resultado !== 'anulada').length;
      return { fecha, conciliadas, diferencias, lineas };
    },
  };
}

/** The comparison as CSV for an accountant: one row per key, Spanish headers, amounts in whole pesos. */
export function reconciliationCsv(report: CoreReconciliation): string {
  const header = ['fecha', 'clave', 'idTransaccion', 'tipo', 'estadoAqui', 'montoAqui', 'montoCore', 'resultado'];
  const cell = (v: string | number | null) => {
    const text = v === null ? '' : String(v);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const rows = report.lineas.map((l) => [report.fecha, l.clave, l.idTransaccion, l.tipo, l.estadoAqui, l.montoAqui, l.montoCore, l.resultado].map(cell).join(','));
  return [header.join(','), ...rows].join('\n') + '\n';
}
