import { MAX_INSTALMENTS_MESSAGE } from './errors';
import { formatClp } from './money';

export { MAX_INSTALMENTS_MESSAGE };

// Field messages of spec §5, exactly as the member reads them.
export const EXCEEDS_PENDING_MESSAGE = 'Excede monto pendiente';
export const minimumAmountMessage = (minimo: number) => `Monto mínimo ${formatClp(minimo)}`;
export const SAVINGS_TOO_LOW_MESSAGE = 'El monto a abonar tiene que ser mayor $1000';
export const SAVINGS_TOO_HIGH_MESSAGE = 'El monto a abonar tiene que ser menor a $5.000.000';
export const CARD_ABOVE_BILLED_MESSAGE = 'Monto supera deuda facturada';
export const CARD_BELOW_MINIMUM_MESSAGE = 'Monto debe superar pago mínimo';
export const CARD_NO_DEBT_MESSAGE = 'Estimado(a), te informamos que tu tarjeta no registra deuda facturada.';
export const MIXED_OVERDUE_MESSAGE =
  'Tienes cuotas pendientes: Una vez cancelada tu cuota pendiente, podrás visualizar el resto de ellas';

/** Spec §9: a savings deposit is at least 1.000 and strictly below 5.000.000 per account. */
export const SAVINGS_MIN = 1_000;
export const SAVINGS_MAX_EXCLUSIVE = 5_000_000;
/** Spec §9: card amount and CP count inputs take at most 13 characters. */
export const AMOUNT_INPUT_MAX_LENGTH = 13;

export type ToggleResult = { ok: true; selected: number[] } | { ok: false };

/**
 * Spec §4: instalments are taken from the oldest to the newest. `ordered` holds a product's payable instalment
 * numbers oldest first and `selected` is always a prefix of it; checking the next one or unchecking the last one
 * is allowed, anything else leaves a gap and is refused.
 */
export function toggleInstalment(ordered: readonly number[], selected: readonly number[], cuota: number): ToggleResult {
  const n = selected.length;
  if (selected.includes(cuota)) {
    return ordered[n - 1] === cuota ? { ok: true, selected: selected.slice(0, -1) } : { ok: false };
  }
  return ordered[n] === cuota ? { ok: true, selected: [...selected, cuota] } : { ok: false };
}

/** True when `selected` is exactly the first `selected.length` of `ordered` (oldest first, no gap, no stranger). */
export function isOldestFirstPrefix(ordered: readonly number[], selected: readonly number[]): boolean {
  return selected.length <= ordered.length && selected.every((cuota, i) => ordered[i] === cuota);
}

/** Free partial amount of a credit instalment (spec §5 'Credit partial amount'). */
export function partialAmountError(amount: number, montoPendiente: number, montoMinimo: number): string | null {
  if (amount > montoPendiente) return EXCEEDS_PENDING_MESSAGE;
  if (amount < montoMinimo) return minimumAmountMessage(montoMinimo);
  return null;
}

/**
 * Spec §5: "input length is limited to the pending amount's digit count minus one". The field shows the amount
 * with thousand dots, and the rule is read on the displayed pending amount ('$85.430' → 6 characters, '85.430'):
 * read on bare digits it would forbid every amount at or above the demo's 10.000 minimum for an 85.430 instalment.
 */
export function partialInputMaxLength(montoPendiente: number): number {
  return formatClp(montoPendiente).length - 1;
}

export function savingsAmountError(amount: number): string | null {
  if (amount < SAVINGS_MIN) return SAVINGS_TOO_LOW_MESSAGE;
  if (amount >= SAVINGS_MAX_EXCLUSIVE) return SAVINGS_TOO_HIGH_MESSAGE;
  return null;
}

/**
 * A card's options: 'Pago mínimo' only while a minimum is owed. Paying the minimum here leaves the statement's
 * pagoMinimo at 0, and a $0 payment is no payment.
 */
export type CardOptionCode = 'minimo' | 'total' | 'abonar';
export function cardOptionsOffered(pagoMinimo: number): readonly CardOptionCode[] {
  return pagoMinimo > 0 ? ['minimo', 'total', 'abonar'] : ['total', 'abonar'];
}

/** The least 'Abonar' takes: the minimum owed, and at least $1 once it is paid. */
export const cardAmountFloor = (pagoMinimo: number): number => Math.max(pagoMinimo, 1);

/** Card 'Abonar': between the minimum payment (at least $1) and the billed total, both included. */
export function cardAmountError(amount: number, pagoMinimo: number, facturado: number): string | null {
  if (amount > facturado) return CARD_ABOVE_BILLED_MESSAGE;
  if (amount < cardAmountFloor(pagoMinimo)) return CARD_BELOW_MINIMUM_MESSAGE;
  return null;
}

/** CP: the count is 1..accumulated; above it the member is told, zero just keeps the button disabled. */
export function cpCountError(count: number, accumulated: number): string | null {
  return count > accumulated ? MAX_INSTALMENTS_MESSAGE : null;
}

export const isValidCpCount = (count: number, accumulated: number) =>
  Number.isInteger(count) && count >= 1 && count <= accumulated;

// --- The installment strings of spec §3 ('Selected instalment entry') ---

export interface InstallmentEntry {
  numero: string;
  monto: number;
  fecha: string;
  estado: string;
  diasMora: number;
}

/** number|amount|due date|state code|days overdue. */
export function encodeInstallment(e: InstallmentEntry): string {
  return [e.numero, e.monto, e.fecha, e.estado, e.diasMora].join('|');
}

/** A savings deposit: number|amount|state|0. */
export function encodeSavingsDeposit(numero: string, monto: number, estado = 'A'): string {
  return [numero, monto, estado, 0].join('|');
}

export function decodeInstallment(s: string): InstallmentEntry | null {
  const parts = s.split('|');
  if (parts.length === 5) {
    const [numero, monto, fecha, estado, dias] = parts as [string, string, string, string, string];
    if (!/^\d+$/.test(monto) || !/^\d+$/.test(dias)) return null;
    return { numero, monto: Number(monto), fecha, estado, diasMora: Number(dias) };
  }
  if (parts.length === 4) {
    const [numero, monto, estado, dias] = parts as [string, string, string, string];
    if (!/^\d+$/.test(monto) || dias !== '0') return null;
    return { numero, monto: Number(monto), fecha: '0', estado, diasMora: 0 };
  }
  return null;
}
