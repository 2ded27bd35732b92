// How the console says what the domain names: states (state-words.ts), roles and permissions (operator-roles.ts).
import { isPermission, isRole, PERMISSION_LABELS, ROLE_LABELS } from '@pago/domain/operator-roles';

/** Roles said in Spanish, in a list. */
export const roleList = (roles: unknown) => (Array.isArray(roles) && roles.length > 0 ? roles.filter(isRole).map((r) => ROLE_LABELS[r]).join(', ') || 'ninguno' : 'ninguno');

/** Permissions said in Spanish, in a list. */
export const permissionList = (permissions: unknown) => (Array.isArray(permissions) ? permissions.filter(isPermission).map((p) => PERMISSION_LABELS[p]).join(', ') : '');
