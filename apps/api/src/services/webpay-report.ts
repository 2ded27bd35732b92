import type { TransactionStatus, WebpayAttemptStatus } from '@pago/domain/payment-states';
import type { DbOrTx } from '../db/client';
import { cardPaymentsOfDay } from '../repositories/webpay-attempt-repository';
import { toCsv } from './csv';

export type WebpayResult = 'conciliada' | 'pendiente' | 'sin cobro' | 'por devolver' | 'devuelta' | 'apartada' | 'cobrada sin pago' | 'pagada sin cobro';

export interface WebpayReportLine {
  ordenCompra: string | null;
  idTransaccion: string;
  estadoWebpay: WebpayAttemptStatus | null;
  estadoPago: TransactionStatus;
  monto: number;
  resultado: WebpayResult;
}

export interface WebpayReport {
  fecha: string;
  conciliadas: number;
  diferencias: number;
  lineas: WebpayReportLine[];
}

/** Differences an accountant must settle; the rest are matched, still open, or never charged. */
const DIFFERENCES: ReadonlySet<WebpayResult> = new Set(['cobrada sin pago', 'pagada sin cobro', 'apartada', 'por devolver']);

function resultOf(attempt: string | null, payment: string): WebpayResult {
  if (attempt === null) return 'pagada sin cobro';
  if (attempt === 'committed') return payment === 'paid' ? 'conciliada' : 'cobrada sin pago';
  if (attempt === 'pending') return 'pendiente';
  if (attempt === 'refund_due') return 'por devolver';
  if (attempt === 'refunded') return 'devuelta';
  if (attempt === 'set_aside') return 'apartada';
  return 'sin cobro';
}

/**
 * Our side of the day's card payments (the business day in Santiago when Webpay's answer was recorded, or the form
 * opened when there is none yet): each Webpay attempt against its payment, and card payments with no charge.
 */
export async function webpayReport(db: DbOrTx, fecha: string): Promise<WebpayReport> {
  const rows = await cardPaymentsOfDay(db, fecha);
  const lineas = rows.map((row) => ({
    ordenCompra: row.buy_order,
    idTransaccion: row.id_transaccion,
    estadoWebpay: row.attempt as WebpayAttemptStatus | null,
    estadoPago: row.payment as TransactionStatus,
    monto: Number(row.amount),
    resultado: resultOf(row.attempt, row.payment),
  }));
  return {
    fecha,
    conciliadas: lineas.filter((l) => l.resultado === 'conciliada').length,
    diferencias: lineas.filter((l) => DIFFERENCES.has(l.resultado)).length,
    lineas,
  };
}

export function webpayReportCsv(report: WebpayReport): string {
  return toCsv(
    ['fecha', 'ordenCompra', 'idTransaccion', 'estadoWebpay', 'estadoPago', 'monto', 'resultado'],
    report.lineas.map((l) => [report.fecha, l.ordenCompra, l.idTransaccion, l.estadoWebpay, l.estadoPago, l.monto, l.resultado]),
  );
}
