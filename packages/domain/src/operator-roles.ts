// Who may do what on the operator's API (docs/OPERATIONS.md, 'Roles'). Every operator route names one permission;
// a signed-in operator holds the union of their roles' permissions, a machine token the scopes it was issued with.
// The API's access checks and the console read this one list, so a permission the list lacks does not compile.

export const ROLES = ['agente', 'operaciones', 'finanzas', 'auditor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  /** The dashboard: today's payments, pending work, health. */
  'resumen.ver',
  /** A member by RUT: transactions, vouchers, blocks, devices; a transaction's timeline. */
  'socios.ver',
  'socios.desbloquear',
  'comprobantes.reenviar',
  /** Enrolment codes and revoking a member's authoriser device. */
  'autorizador.gestionar',
  'parametros.ver',
  /** Propose a parameter change (four eyes when it stops payments or moves money), and decide another's. */
  'parametros.cambiar',
  'importacion',
  'conciliacion.ver',
  /** Propose and decide a manual re-posting to the core. */
  'core.reenviar',
  /** Propose and decide a manual refund of a card payment Webpay took and that was set aside (decision 036). */
  'webpay.devolver',
  /** The day's close, three-way (decision 049). */
  'cierre.ver',
  /** Propose and decide a day's close (four eyes). */
  'cierre.firmar',
  /** Propose and decide the reversal of a paid payment: the core and Webpay give the money back (decision 050). */
  'pagos.anular',
  'auditoria.ver',
  'tokens.gestionar',
  'operadores.roles',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  agente: ['resumen.ver', 'socios.ver', 'socios.desbloquear', 'comprobantes.reenviar'],
  operaciones: ['resumen.ver', 'socios.ver', 'autorizador.gestionar', 'parametros.ver', 'parametros.cambiar', 'importacion'],
  finanzas: ['resumen.ver', 'socios.ver', 'conciliacion.ver', 'core.reenviar', 'webpay.devolver', 'pagos.anular', 'cierre.ver', 'cierre.firmar'],
  // Read-only, everything.
  auditor: ['resumen.ver', 'socios.ver', 'parametros.ver', 'conciliacion.ver', 'cierre.ver', 'auditoria.ver'],
  admin: ['resumen.ver', 'tokens.gestionar', 'operadores.roles', 'auditoria.ver'],
};

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);
export const isPermission = (value: unknown): value is Permission => typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);

export function permissionsOf(roles: readonly Role[]): Set<Permission> {
  return new Set(roles.flatMap((role) => ROLE_PERMISSIONS[role]));
}

/** The kinds of change a second person decides (four eyes). */
export const CHANGE_KINDS = ['parametro', 'reposteo_core', 'devolucion_webpay', 'token', 'roles_operador', 'codigo_autorizador', 'cierre_dia', 'anulacion_pago'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Who may decide each kind of change (and propose it, but for a token, which any operator asks for themselves). */
export const CHANGE_PERMISSION: Record<ChangeKind, Permission> = {
  parametro: 'parametros.cambiar',
  reposteo_core: 'core.reenviar',
  devolucion_webpay: 'webpay.devolver',
  token: 'tokens.gestionar',
  roles_operador: 'operadores.roles',
  codigo_autorizador: 'autorizador.gestionar',
  cierre_dia: 'cierre.firmar',
  anulacion_pago: 'pagos.anular',
};

/** What a permission lets its holder do, in Spanish (the console shows a token's permissions with these). */
export const PERMISSION_LABELS: Record<Permission, string> = {
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
  'cierre.ver': 'Ver el cierre del día',
  'cierre.firmar': 'Firmar el cierre del día',
  'pagos.anular': 'Anular pagos aplicados',
  'auditoria.ver': 'Ver auditoría',
  'tokens.gestionar': 'Gestionar tokens',
  'operadores.roles': 'Asignar roles',
};

/** Spanish labels for the console and the sandbox page. */
export const ROLE_LABELS: Record<Role, string> = {
  agente: 'Agente (call center)',
  operaciones: 'Operaciones',
  finanzas: 'Finanzas',
  auditor: 'Auditoría',
  admin: 'Administración',
};
