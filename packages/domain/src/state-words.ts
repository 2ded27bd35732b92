import type {
  AuthorizationStatus,
  AuthoriserRequestStatus,
  CoreOperationStatus,
  ItemStatus,
  OperatorChangeStatus,
  TransactionStatus,
  WebpayAttemptStatus,
} from './payment-states';

// The one Spanish vocabulary of every state staff and members read: each table is a Record over its machine's
// states, so a state added to payment-states.ts does not compile until it has its words here.

/** A payment (transaction). */
export const TRANSACTION_WORDS: Record<TransactionStatus, string> = {
  pending: 'Pendiente de pago',
  posting: 'Esperando la respuesta del core',
  paid: 'Pagada',
  reversing: 'Anulándose: el dinero vuelve al socio',
  reversed: 'Anulada: el dinero volvió al socio',
  rejected: 'Rechazada, sin cargo',
  cancelled: 'Anulada por el socio, sin cargo',
  expired: 'Vencida sin pagar',
};

/** A line of a payment (one instalment or deposit). */
export const ITEM_WORDS: Record<ItemStatus, string> = {
  pending: 'Pendiente',
  paid: 'Pagada',
  reversed: 'Anulada: se debe de nuevo',
  rejected: 'No pagada',
};

/** An operation asked of the core banking system (a debit of the cuenta vista, or a credit of a card payment). */
export const CORE_OPERATION_WORDS: Record<CoreOperationStatus, string> = {
  pending: 'Enviada al core, sin respuesta aún',
  booked: 'Registrada en el core',
  refused: 'Rechazada por el core',
  failed: 'Falló en el core sin registrar nada: se envía de nuevo',
};

/** A trip to Webpay: what happened to the member's card, and to any refund. */
export const WEBPAY_ATTEMPT_WORDS: Record<WebpayAttemptStatus, string> = {
  creating: 'Pidiendo el formulario a Webpay',
  not_opened: 'No cobrado: el formulario de Webpay no se abrió',
  pending: 'Formulario de Webpay abierto, sin respuesta aún',
  committed: 'Cobrado y aplicado',
  rejected: 'No cobrado: Webpay rechazó la tarjeta',
  cancelled: 'No cobrado: el socio anuló en Webpay',
  expired: 'No cobrado: el formulario venció',
  refund_due: 'Cobrado, devolución pendiente',
  refunded: 'Cobrado y devuelto',
  set_aside: 'Cobrado y retenido: Webpay rechazó la devolución',
};

/** Where a paid payment's reversal stands (decision 050), from its approval on. */
export const REVERSAL_STEPS = ['core', 'core_rechazo', 'webpay', 'webpay_rechazo', 'anulado'] as const;
export type ReversalStepName = (typeof REVERSAL_STEPS)[number];
export const REVERSAL_STEP_WORDS: Record<ReversalStepName, string> = {
  core: 'El core está devolviendo el dinero',
  core_rechazo: 'El core rechazó la anulación: no se devolvió nada y el pago sigue aplicado en el core',
  webpay: 'El core devolvió el dinero y las cuotas se deben de nuevo; Webpay está devolviendo el cobro a la tarjeta',
  webpay_rechazo:
    'El core devolvió el dinero y las cuotas se deben de nuevo, pero Webpay rechazó la devolución a la tarjeta: el cobro quedó apartado para devolverlo desde Conciliación',
  anulado: 'Anulado: el dinero volvió al socio y las cuotas se deben de nuevo',
};

/** A second-factor request with the coordinate card. */
export const AUTHORIZATION_WORDS: Record<AuthorizationStatus, string> = {
  pending: 'Esperando la respuesta del socio',
  approved: 'Aprobada, aún sin pagar',
  rejected: 'Rechazada por el socio',
  used: 'Correcta: autorizó el pago',
  expired: 'Sin pagar: respuesta incorrecta, vencida o reemplazada',
};

/** A push to the mobile authoriser (factor 2). */
export const AUTHORISER_REQUEST_WORDS: Record<AuthoriserRequestStatus, string> = {
  pending: 'Esperando la decisión en el teléfono',
  approved: 'Aprobada en el teléfono, aún sin pagar',
  rejected: 'Rechazada en el teléfono',
  used: 'Aprobada en el teléfono: autorizó el pago',
  expired: 'Sin pagar: vencida, reemplazada o dispositivo revocado',
};

/** An operator's change waiting for a second person. */
export const OPERATOR_CHANGE_WORDS: Record<OperatorChangeStatus, string> = {
  pendiente: 'Esperando aprobación',
  aprobado: 'Aprobado y aplicado',
  rechazado: 'Rechazado',
  vencido: 'Vencido sin decisión',
  fallido: 'Aprobado, pero no pudo aplicarse',
};

/** The words of a state, or a dash when there is none; a state outside the table is said as unknown, never as its code. */
export function wordsOf<S extends string>(words: Record<S, string>, state: S | null | undefined): string {
  if (state === null || state === undefined) return '—';
  return Object.hasOwn(words, state) ? words[state] : 'Estado desconocido';
}

/** How a payment was paid, as the wire names it ('CUENTA VISTA', 'WEBPAY'). */
export function paymentMethodWords(medioPago: string | null | undefined): string {
  if (medioPago === 'CUENTA VISTA') return 'Cuenta vista';
  if (medioPago === 'WEBPAY') return 'Tarjeta (Webpay)';
  return medioPago ? 'Otro medio' : 'Sin elegir';
}

/**
 * The audit trail's events in words (the trail's kinds are codes; staff never read them): the one place the console
 * and the payment's trail take them from. The API writes only these kinds (AuditEvent.kind is an AuditEventKind).
 */
const EVENT_WORDS = {
  'seleccion.rechazada': 'Selección rechazada',
  'pago.en_curso.rechazado': 'Pago detenido: esas cuotas ya se están pagando en otra sesión',
  'clave.rechazada.horario': 'Ingreso rechazado: pagos cerrados a esa hora',
  'clave.rechazada.bloqueada': 'Ingreso rechazado: clave bloqueada',
  'clave.correcta': 'Clave correcta',
  'clave.incorrecta': 'Clave incorrecta',
  'clave.bloqueada': 'Clave incorrecta: clave bloqueada',
  'coordenadas.incorrectas': 'Tarjeta de coordenadas: intento fallido',
  'coordenadas.bloqueadas': 'Tarjeta de coordenadas bloqueada',
  'pago.cuentavista': 'Pago con cuenta vista',
  'pago.cuentavista.enviado': 'Débito enviado al core',
  'core.debito.rechazado': 'El core rechazó el débito',
  'core.debito.fallido': 'El core registró una falla del débito: no se debitó',
  'core.abono.fallido': 'El core registró una falla del abono: se reintenta con otra clave',
  'core.abono.rechazado': 'El core rechazó el abono',
  'core.abono.reenviado': 'Abono reenviado al core',
  'pago.anulacion': 'Anulación del pago aprobada',
  'core.anulacion': 'El core devolvió el dinero',
  'core.anulacion.fallida': 'El core falló al anular: se intenta de nuevo',
  'core.anulacion.rechazada': 'El core rechazó la anulación',
  'pago.anulacion.core': 'Cuotas adeudadas de nuevo',
  'pago.anulacion.rechazada': 'La anulación no terminó',
  'pago.anulacion.rechazada.core': 'El core no anuló el pago: sigue aplicado',
  'pago.anulado': 'Pago anulado: el socio fue avisado',
  'webpay.init': 'Formulario de Webpay pedido',
  'webpay.auth': 'Pago con tarjeta iniciado',
  'pago.webpay': 'Pago con tarjeta',
  'webpay.anulado': 'El socio anuló en Webpay',
  'webpay.anulacion.rechazada': 'Anulación no creída: Webpay seguía con el formulario abierto',
  'webpay.anulacion.revisada': 'Anulación revisada con Webpay',
  'webpay.reembolso': 'Cobro devuelto por Webpay',
  'webpay.reembolso.pendiente': 'Devolución pendiente en Webpay',
  'webpay.apartado': 'Cobro retenido: Webpay no hizo la devolución',
  'webpay.devolucion.manual': 'Devolución manual pedida a Webpay',
  'webpay.devolucion.manual.rechazada': 'Devolución manual rechazada por Webpay',
  'webpay.init.cerrado': 'Formulario de Webpay nunca abierto: cerrado sin cobro',
  'webpay.discrepancia': 'Diferencia con Webpay',
  'webpay.tope.ahorro': 'Depósito sobre el tope de ahorro',
  'deposito.tercero.rechazado': 'Depósito en ahorro de otro socio rechazado',
  'comprobante.enviado': 'Comprobante enviado por correo',
  'comprobante.reenviado': 'Comprobante reenviado por un operador',
  'cierre.firmado': 'Cierre del día firmado por dos',
  'cambio.propuesto': 'Cambio propuesto',
  'cambio.aprobado': 'Cambio aprobado',
  'cambio.rechazado': 'Cambio rechazado',
  'cambio.vencido': 'Cambio vencido',
  'cambio.decision.rechazada': 'Decisión sobre un cambio no aceptada',
  'captcha.rechazado': 'Captcha no superado',
  'clave.cliente.captcha': 'Ingreso de clave sujeto a captcha',
  'clave.desbloqueada.dispositivo': 'Clave desbloqueada desde el autorizador móvil',
  'listar.aviso': 'Aviso mostrado al consultar productos',
  'listar.tope.rut': 'Consultas de un RUT sobre el tope permitido',
  'navegador.log': 'Informe del navegador',
  'importacion.socio.creado': 'Socio creado por la carga de datos',
  'importacion.socio.cambiado': 'Datos del socio actualizados por la carga',
  'autorizador.codigo.emitido': 'Código de enrolamiento del autorizador emitido',
  'autorizador.enrolado': 'Autorizador móvil enrolado',
  'autorizador.aprobada': 'Pago aprobado en el autorizador móvil',
  'autorizador.rechazada': 'Pago rechazado en el autorizador móvil',
  'autorizador.rechazo': 'Solicitud del autorizador móvil no aceptada',
  'admin.autorizador.revocado': 'Autorizador móvil revocado por un operador',
  'admin.clave.desbloqueada': 'Clave desbloqueada por un operador',
  'admin.tarjeta.desbloqueada': 'Tarjeta de coordenadas desbloqueada por un operador',
  'admin.importacion': 'Carga de datos de socios',
  'admin.parametro.actualizado': 'Parámetro actualizado',
  'operador.ingreso': 'Ingreso de operador',
  'operador.ingreso.rechazado': 'Ingreso de operador rechazado',
  'operador.salida': 'Salida de operador',
  'operador.acceso.rechazado': 'Acceso de operador denegado',
  'operador.consulta': 'Consulta de un operador',
  'operador.roles': 'Roles de operador asignados',
  'operador.roles.rechazado': 'Cambio de roles de operador rechazado',
  'token.solicitado': 'Token de sistema solicitado',
  'token.emitido': 'Token de sistema emitido',
  'token.aprobado': 'Token de sistema aprobado',
  'token.rechazado': 'Token de sistema rechazado',
  'token.revocado': 'Token de sistema revocado',
} as const satisfies Record<string, string>;

/** Every kind of event the audit trail holds. */
export type AuditEventKind = keyof typeof EVENT_WORDS;
export const AUDIT_EVENT_KINDS = Object.keys(EVENT_WORDS) as AuditEventKind[];
export const AUDIT_EVENT_WORDS: Readonly<Record<string, string>> = EVENT_WORDS;

/** Why a coordinate answer failed, as the trail records it. */
const COORDINATE_FAILURES: Readonly<Record<string, string>> = {
  incorrecto: 'coordenadas incorrectas',
  vencido: 'respondidas después de vencer',
  'sin respuesta': 'sin respuesta: se pidieron otras',
};

/** An event of the trail in words: its title, and what it carries that an agent needs (attempts, amounts, reasons). */
export function auditEventWords(kind: string, detail: unknown): { title: string; detail: string } {
  const d = detail !== null && typeof detail === 'object' ? (detail as Record<string, unknown>) : {};
  const parts: string[] = [];
  if (typeof d.motivo === 'string' && kind.startsWith('coordenadas.')) parts.push((Object.hasOwn(COORDINATE_FAILURES, d.motivo) && COORDINATE_FAILURES[d.motivo]) || d.motivo);
  if (typeof d.intentos === 'number') parts.push(`intento fallido nº ${d.intentos}`);
  if (typeof d.minutos === 'number') parts.push(`bloqueada ${d.minutos} minutos`);
  if (typeof d.operador === 'string') parts.push(`por ${d.operador}`);
  if (typeof d.aprobadoPor === 'string') parts.push(`aprobado por ${d.aprobadoPor}`);
  if (typeof d.rechazadoPor === 'string') parts.push(`rechazado por ${d.rechazadoPor}`);
  return { title: (Object.hasOwn(AUDIT_EVENT_WORDS, kind) && AUDIT_EVENT_WORDS[kind]) || 'Evento registrado', detail: parts.join(' · ') };
}
