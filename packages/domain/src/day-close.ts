import type { CoreOperationKind, CoreOperationStatus, TransactionStatus, WebpayAttemptStatus } from './payment-states';

// The day's close (decision 049): every payment of a business day with our side, Webpay's and the core's, the totals
// of each side per family and per commerce code, and each difference named by its cause. One rule, here; the API
// gathers the three sides and the console shows what this answers.

/** Why a line's three sides differ, as an accountant reads it. */
export const CLOSE_CAUSES = {
  posteo_pendiente: 'Abono al core pendiente',
  anulacion_pendiente: 'Anulación pendiente en el core',
  rechazado_core: 'Rechazado por el core',
  devolucion_pendiente: 'Devolución pendiente en Webpay',
  apartado: 'Cobro apartado: Webpay no aceptó la devolución',
  webpay_sin_respuesta: 'Webpay aún no confirma el cobro',
  cobrado_desconocido: 'Cobrado por Webpay pero desconocido aquí',
  contabilizado_desconocido: 'Contabilizado en el core pero desconocido aquí',
  montos_distintos: 'Los montos no coinciden',
} as const;
export type CloseCause = keyof typeof CLOSE_CAUSES;

/** One store of a card payment as Webpay answered it: its attempt's state, or `rejected` for a store Webpay did not approve. */
export interface CloseStore {
  ordenCompra: string;
  codigoComercio: string;
  monto: number;
  estado: WebpayAttemptStatus;
}

/**
 * One posting of the payment under its key: our state and what the core booked under that key (null: nothing). A
 * reversal (`anulacion`, decision 050) gives money back: what the core booked under its key counts against the payment.
 */
export interface ClosePosting {
  clave: string;
  tipo: CoreOperationKind;
  estado: CoreOperationStatus;
  monto: number;
  montoCore: number | null;
  /** The store it credits (a card credit's key is its store's buy order); null for an own-account debit. */
  codigoComercio: string | null;
}

/** A payment of the day as this product recorded it. */
export interface ClosePayment {
  idTransaccion: string;
  familia: string;
  medioPago: string | null;
  estado: TransactionStatus;
  /** What was paid here: the lines paid (0 while the payment is not paid). */
  montoPagado: number;
  tiendas: CloseStore[];
  posteos: ClosePosting[];
}

/** Money the core booked this day under this channel's key that no payment here knows. */
export interface UnknownPosting {
  clave: string;
  montoCore: number;
}

export interface CloseLine {
  idTransaccion: string | null;
  familia: string | null;
  medioPago: string | null;
  nuestro: { estado: TransactionStatus | null; monto: number };
  /** Null for a payment with no card attempt (own account, or a key only the core has). */
  webpay: { monto: number; tiendas: CloseStore[] } | null;
  core: { monto: number; posteos: ClosePosting[] };
  causas: CloseCause[];
}

export interface CloseTotal {
  /** A family's code, a commerce code, or null (own-account payments carry no commerce code; an unknown key no family). */
  clave: string | null;
  nuestro: number;
  webpay: number;
  core: number;
}

export interface DayComparison {
  lineas: CloseLine[];
  porFamilia: CloseTotal[];
  porCodigoComercio: CloseTotal[];
  diferencias: number;
}

/** The states in which Webpay holds money of a store (given back: refunded, nothing held). */
const HELD: ReadonlySet<WebpayAttemptStatus> = new Set(['committed', 'refund_due', 'set_aside']);
const UNANSWERED: ReadonlySet<WebpayAttemptStatus> = new Set(['creating', 'pending']);

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** What the core booked under a posting's key that counts: a key we took as refused or failed applied nothing here. */
const booked = (p: ClosePosting) => p.montoCore ?? 0;
/** The same, with what a reversal booked taken away. */
const net = (p: ClosePosting) => (p.tipo === 'anulacion' ? -booked(p) : booked(p));

/** The causes of one payment's differences, in the order an accountant settles them; empty when the three sides agree. */
export function causesOf(payment: ClosePayment): CloseCause[] {
  const causes = new Set<CloseCause>();
  const card = payment.medioPago === 'WEBPAY' || payment.tiendas.length > 0;
  const paid = payment.estado === 'paid';
  for (const store of payment.tiendas) {
    if (store.estado === 'refund_due') causes.add('devolucion_pendiente');
    if (store.estado === 'set_aside') causes.add('apartado');
    if (UNANSWERED.has(store.estado)) causes.add('webpay_sin_respuesta');
    if (store.estado === 'committed' && !paid) causes.add('cobrado_desconocido');
  }
  for (const posting of payment.posteos) {
    if ((posting.estado === 'refused' || posting.estado === 'failed') && booked(posting) > 0) causes.add('contabilizado_desconocido');
    if (posting.estado === 'pending') causes.add(posting.tipo === 'anulacion' ? 'anulacion_pendiente' : 'posteo_pendiente');
  }
  const ours = payment.montoPagado;
  const core = sum(payment.posteos.filter((p) => p.estado === 'booked' || p.estado === 'pending').map(net));
  const charged = sum(payment.tiendas.filter((s) => s.estado === 'committed').map((s) => s.monto));
  // A credit the core refused and nothing booked since: the money Webpay took is not in the core.
  if (paid && core < ours && !causes.has('posteo_pendiente') && payment.posteos.some((p) => p.estado === 'refused')) causes.add('rechazado_core');
  if (causes.size === 0 && (core !== ours || (card && charged !== ours))) causes.add('montos_distintos');
  return (Object.keys(CLOSE_CAUSES) as CloseCause[]).filter((c) => causes.has(c));
}

function addTo(totals: Map<string | null, CloseTotal>, clave: string | null, side: 'nuestro' | 'webpay' | 'core', amount: number): void {
  if (amount === 0 && totals.has(clave)) return;
  const total = totals.get(clave) ?? { clave, nuestro: 0, webpay: 0, core: 0 };
  total[side] += amount;
  totals.set(clave, total);
}

/** By key, the row without one (own account, unknown family) last. */
const sorted = (totals: Map<string | null, CloseTotal>) =>
  [...totals.values()].sort((a, b) => (a.clave === null ? 1 : b.clave === null ? -1 : a.clave < b.clave ? -1 : a.clave > b.clave ? 1 : 0));

/**
 * The day compared: one line per payment (and one per key only the core has), the lines with differences first; the
 * totals per family and per commerce code of what each side holds — ours what was paid here, Webpay's what it charged
 * and still holds, the core's what it booked under our keys.
 */
export function compareDay(payments: readonly ClosePayment[], unknown: readonly UnknownPosting[]): DayComparison {
  const lineas: CloseLine[] = [];
  const porFamilia = new Map<string | null, CloseTotal>();
  const porCodigo = new Map<string | null, CloseTotal>();
  for (const p of payments) {
    const card = p.medioPago === 'WEBPAY' || p.tiendas.length > 0;
    const held = p.tiendas.filter((s) => HELD.has(s.estado));
    const webpay = sum(held.map((s) => s.monto));
    const core = sum(p.posteos.map(net));
    lineas.push({
      idTransaccion: p.idTransaccion,
      familia: p.familia,
      medioPago: p.medioPago,
      nuestro: { estado: p.estado, monto: p.montoPagado },
      webpay: card ? { monto: webpay, tiendas: p.tiendas } : null,
      core: { monto: core, posteos: p.posteos },
      causas: causesOf(p),
    });
    addTo(porFamilia, p.familia, 'nuestro', p.montoPagado);
    addTo(porFamilia, p.familia, 'webpay', webpay);
    addTo(porFamilia, p.familia, 'core', core);
    // Ours per commerce code: a card payment paid here is what its applied stores carried.
    if (p.estado === 'paid') {
      const applied = p.tiendas.filter((s) => s.estado === 'committed');
      if (applied.length > 0) for (const s of applied) addTo(porCodigo, s.codigoComercio, 'nuestro', s.monto);
      else addTo(porCodigo, null, 'nuestro', p.montoPagado);
    }
    for (const s of held) addTo(porCodigo, s.codigoComercio, 'webpay', s.monto);
    for (const posting of p.posteos) if (booked(posting) > 0) addTo(porCodigo, posting.codigoComercio, 'core', net(posting));
  }
  for (const u of unknown) {
    lineas.push({ idTransaccion: null, familia: null, medioPago: null, nuestro: { estado: null, monto: 0 }, webpay: null, core: { monto: u.montoCore, posteos: [] }, causas: ['contabilizado_desconocido'] });
    addTo(porFamilia, null, 'core', u.montoCore);
    addTo(porCodigo, null, 'core', u.montoCore);
  }
  // Differences first; within each group, the order the payments came in.
  const ordered = [...lineas.filter((l) => l.causas.length > 0), ...lineas.filter((l) => l.causas.length === 0)];
  return { lineas: ordered, porFamilia: sorted(porFamilia), porCodigoComercio: sorted(porCodigo), diferencias: ordered.filter((l) => l.causas.length > 0).length };
}

/** A day closes once it is over and nothing is unexplained: every difference must be settled first. */
export type CloseRefusal = 'not_over' | 'differences';

export function closeRefusal(fecha: string, today: string, comparison: Pick<DayComparison, 'diferencias'>): CloseRefusal | null {
  if (fecha >= today) return 'not_over';
  return comparison.diferencias > 0 ? 'differences' : null;
}

export const CLOSE_REFUSALS: Record<CloseRefusal, string> = {
  not_over: 'Solo se cierra un día hábil ya terminado',
  differences: 'El día tiene diferencias sin resolver: se cierra cuando las tres partes coinciden',
};

/** The state of a day's close as staff read it. */
export const DAY_CLOSE_WORDS = {
  abierto: 'Abierto',
  cerrado: 'Cerrado',
  reabierto: 'Reabierto',
} as const;
