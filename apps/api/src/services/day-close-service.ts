import { businessToday } from '@pago/domain/business-time';
import { wireToIso } from '@pago/domain/dates';
import { CLOSE_CAUSES, compareDay, type ClosePayment, type DayComparison, type UnknownPosting } from '@pago/domain/day-close';
import { isFamily } from '@pago/domain/families';
import { CORE_OPERATION_WORDS, paymentMethodWords, TRANSACTION_WORDS, WEBPAY_ATTEMPT_WORDS, wordsOf } from '@pago/domain/state-words';
import type { DbOrTx } from '../db/client';
import { closeOf, knownKeys, paymentsOfDay, type DayCloseRow, type DayPaymentRow } from '../repositories/day-close-repository';
import { firstKeyOf } from '../repositories/core-operation-repository';
import { isLoanInCore, type CoreBanking } from './core-banking';
import { toCsv } from './csv';

/** What the core booked under this channel's keys on the accounts of a day's payments: per key, and the keys we lack. */
export interface CoreSide {
  byKey: Map<string, { debit: number; credit: number }>;
  unknown: UnknownPosting[];
}

const wire = (fecha: string) => fecha.replaceAll('-', '');

/**
 * The core's side of a day (yyyy-mm-dd), read through the port with no database transaction open: every key of the
 * day's payments as booked (whatever the core's date), and the keys booked on that date on the same accounts that no
 * operation here has.
 */
export async function readCoreSide(db: DbOrTx, core: CoreBanking, fecha: string, rows: DayPaymentRow[]): Promise<CoreSide | { unavailable: string }> {
  const accounts = new Map<string, boolean>();
  for (const op of rows.flatMap((r) => r.ops)) {
    if (op.sourceAccount) accounts.set(op.sourceAccount, false);
    for (const line of op.lines) accounts.set(line.numeroProducto, isLoanInCore(line.family));
  }
  if (accounts.size === 0) return { byKey: new Map(), unknown: [] };
  const booked = await core.channelOperations([...accounts].map(([numero, loan]) => ({ numero, loan })));
  if (!booked.ok) return { unavailable: booked.detail };
  const byKey = new Map<string, { debit: number; credit: number; date: string }>();
  for (const v of booked.data.filter((op) => !op.reversed)) {
    const sums = byKey.get(v.key) ?? { debit: 0, credit: 0, date: v.date };
    sums[v.direction] += v.amount;
    byKey.set(v.key, sums);
  }
  const ours = new Set(rows.flatMap((r) => r.ops.map((op) => op.key)));
  const foreign = [...byKey].filter(([key, sums]) => !ours.has(key) && sums.date === wire(fecha)).map(([key]) => key);
  const elsewhere = await knownKeys(db, foreign);
  const unknown = foreign.filter((key) => !elsewhere.has(key)).map((clave) => ({ clave, montoCore: byKey.get(clave)!.debit || byKey.get(clave)!.credit }));
  return { byKey, unknown };
}

/** A day's payments with the core's side: the input of the rule (packages/domain/src/day-close.ts). */
export function closePayments(rows: DayPaymentRow[], core: CoreSide): ClosePayment[] {
  return rows.map((row) => {
    const paid = row.status === 'paid';
    const stores = row.attempts.flatMap((a) =>
      a.stores.map((s) => ({
        ordenCompra: s.buyOrder,
        codigoComercio: s.commerceCode,
        monto: Number(s.amount),
        // A store of an applied charge whose lines were left unpaid is one Webpay did not approve.
        estado: a.status === 'committed' && paid && !row.paidProducts.includes(s.productId) ? ('rejected' as const) : a.status,
      })),
    );
    const codeOf = new Map(stores.map((s) => [s.ordenCompra, s.codigoComercio]));
    return {
      idTransaccion: row.idTransaccion,
      familia: row.family,
      medioPago: row.medioPago,
      estado: row.status,
      montoPagado: paid ? row.paid : 0,
      tiendas: stores,
      posteos: row.ops.map((op) => {
        const sums = core.byKey.get(op.key);
        // The core's side of an own-account payment is the cuenta vista's debit; of a card credit, the credit; of a
        // reversal booked as a transfer back (an undo books nothing new), the credit back.
        const montoCore = sums ? (op.kind === 'cuenta_vista' ? sums.debit : sums.credit || sums.debit) || null : null;
        return { clave: op.key, tipo: op.kind, estado: op.status, monto: op.amount, montoCore, codigoComercio: op.kind === 'abono_webpay' ? (codeOf.get(firstKeyOf(op.key)) ?? null) : null };
      }),
    };
  });
}

export type CloseState =
  | { estado: 'abierto' }
  | { estado: 'cerrado'; cerradoPor: string; propuestoPor: string; cerrado: Date }
  | { estado: 'reabierto'; cerradoPor: string; propuestoPor: string; cerrado: Date; reabierto: Date; motivo: string };

export function closeStateOf(row: DayCloseRow | null): CloseState {
  if (!row) return { estado: 'abierto' };
  const signed = { cerradoPor: row.closedBy, propuestoPor: row.proposedBy, cerrado: row.closedAt };
  if (row.status === 'cerrado') return { estado: 'cerrado', ...signed };
  return { estado: 'reabierto', ...signed, reabierto: row.reopenedAt ?? row.closedAt, motivo: row.reopenReason ?? 'Cambió un pago del día' };
}

/** What was signed: each side's totals, kept with the close. */
export const signedTotals = (c: DayComparison) => ({ porFamilia: c.porFamilia, porCodigoComercio: c.porCodigoComercio, lineas: c.lineas.length });

/** Today's business day in Santiago, yyyy-mm-dd. */
export const isoToday = (now: Date) => wireToIso(businessToday(now));

export function createDayCloseService(db: DbOrTx, core: CoreBanking, clock: () => Date) {
  return {
    today: () => isoToday(clock()),

    /** The day compared on its three sides; the core is read with no database transaction open. */
    async compare(fecha: string): Promise<{ comparison: DayComparison; core: CoreSide } | { unavailable: string }> {
      const rows = await paymentsOfDay(db, fecha);
      const side = await readCoreSide(db, core, fecha, rows);
      if ('unavailable' in side) return side;
      return { comparison: compareDay(closePayments(rows, side), side.unknown), core: side };
    },

    async view(fecha: string) {
      const compared = await this.compare(fecha);
      if ('unavailable' in compared) return compared;
      return { fecha, hoy: isoToday(clock()), ...compared.comparison, cierre: closeStateOf(await closeOf(db, fecha)) };
    },
  };
}

export type DayCloseService = ReturnType<typeof createDayCloseService>;

const causeWords = (causes: readonly (keyof typeof CLOSE_CAUSES)[]) => causes.map((c) => CLOSE_CAUSES[c]).join('; ');

/**
 * The close as an accountant's file: one row per payment with its three sides, in Spanish words, amounts in whole
 * pesos; a BOM so a spreadsheet reads the accents as UTF-8, and comma-separated as the other exports.
 */
export function dayCloseCsv(fecha: string, c: DayComparison): string {
  const rows = c.lineas.map((l) => [
    fecha,
    l.idTransaccion ?? '',
    l.familia ?? '',
    l.medioPago ? paymentMethodWords(l.medioPago) : '',
    l.nuestro.estado ? wordsOf(TRANSACTION_WORDS, l.nuestro.estado) : 'Desconocido aquí',
    l.nuestro.monto,
    l.webpay ? l.webpay.tiendas.map((s) => `${s.ordenCompra} ${s.codigoComercio}: ${wordsOf(WEBPAY_ATTEMPT_WORDS, s.estado)}`).join(' | ') : 'No aplica',
    l.webpay ? l.webpay.monto : '',
    l.core.posteos.length > 0 ? l.core.posteos.map((p) => `${p.clave}: ${wordsOf(CORE_OPERATION_WORDS, p.estado)}`).join(' | ') : 'Contabilizado en el core',
    l.core.monto,
    l.causas.length > 0 ? causeWords(l.causas) : 'Cuadra',
  ]);
  const totals = [
    ...c.porFamilia.map((t) => ['Total por familia', t.clave && isFamily(t.clave) ? t.clave : 'Sin familia', t.nuestro, t.webpay, t.core]),
    ...c.porCodigoComercio.map((t) => ['Total por código de comercio', t.clave ?? 'Cuenta vista', t.nuestro, t.webpay, t.core]),
  ].map(([what, key, ours, webpay, core]) => [fecha, what, key, '', '', ours, '', webpay, '', core, '']);
  return (
    '\ufeff' +
    toCsv(['fecha', 'idTransaccion', 'familia', 'medio de pago', 'estado aquí', 'monto aquí', 'Webpay (por tienda)', 'monto Webpay', 'core (por clave)', 'monto core', 'diferencia'], [...rows, ...totals])
  );
}
