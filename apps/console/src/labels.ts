// How the console says the states of the server's tables (packages/domain/src/payment-states.ts holds the moves).

/** A transaction's state. */
export const TRANSACTION_STATES: Record<string, string> = { pending: 'Pendiente', posting: 'En el core', paid: 'Pagada', rejected: 'Rechazada', cancelled: 'Anulada', expired: 'Vencida' };

/** A Webpay attempt's state. */
export const ATTEMPT_STATES: Record<string, string> = {
  creating: 'Pidiendo el formulario a Webpay',
  not_opened: 'Formulario no abierto (sin cobro)',
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

/** What a permission lets its holder do (a token's permissions are shown with these). */
export const PERMISSION_LABELS: Record<string, string> = {
  'resumen.ver': 'Ver el resumen',
  'socios.ver': 'Consultar socios',
  'socios.desbloquear': 'Desbloquear clave y tarjeta',
  'comprobantes.reenviar': 'Reenviar comprobantes',
  'autorizador.gestionar': 'Gestionar el autorizador',
  'parametros.ver': 'Ver parámetros',
  'parametros.cambiar': 'Cambiar parámetros',
  importacion: 'Carga nocturna',
  'conciliacion.ver': 'Ver conciliación',
  'core.reenviar': 'Reenviar abonos al core',
  'webpay.devolver': 'Devolver cobros de Webpay',
  'auditoria.ver': 'Ver auditoría',
  'tokens.gestionar': 'Gestionar tokens',
  'operadores.roles': 'Asignar roles',
};

/** Permissions said in Spanish, in a list. */
export const permissionList = (permissions: unknown) => (Array.isArray(permissions) ? permissions.map((p) => labelOf(PERMISSION_LABELS, String(p))).join(', ') : '');
