// How the console says the states of the server's tables (packages/domain/src/payment-states.ts holds the moves).

/** A transaction's state. */
export const TRANSACTION_STATES: Record<string, string> = { pending: 'Pendiente', posting: 'En el core', paid: 'Pagada', rejected: 'Rechazada', cancelled: 'Anulada', expired: 'Vencida' };

/** A Webpay attempt's state. */
export const ATTEMPT_STATES: Record<string, string> = {
  pending: 'Formulario abierto',
  committed: 'Cobrado y aplicado',
  rejected: 'Rechazado',
  cancelled: 'Anulado',
  expired: 'Vencido',
  refund_due: 'Por devolver',
  refunded: 'Devuelto',
  set_aside: 'Apartado',
};

export const labelOf = (labels: Record<string, string>, value: string | null | undefined) => (value ? (labels[value] ?? value) : '—');

/** An operator's role. */
export const ROLE_LABELS: Record<string, string> = { agente: 'Agente', operaciones: 'Operaciones', finanzas: 'Finanzas', auditor: 'Auditoría', admin: 'Administración' };

/** Roles said in Spanish, in a list. */
export const roleList = (roles: unknown) => (Array.isArray(roles) && roles.length > 0 ? roles.map((r) => labelOf(ROLE_LABELS, String(r))).join(', ') : 'ninguno');
