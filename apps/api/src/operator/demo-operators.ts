import type { Role } from './roles';

/** The sandbox identity provider's operators (listed with their passwords on /sandbox). Two per role that decides a four-eyes change. */
export interface DemoOperator {
  usuario: string;
  nombre: string;
  clave: string;
  roles: Role[];
}

export const DEMO_OPERATORS: readonly DemoOperator[] = [
  { usuario: 'agente', nombre: 'Ana Agente', clave: 'agente-demo', roles: ['agente'] },
  { usuario: 'operaciones', nombre: 'Óscar Operaciones', clave: 'operaciones-demo', roles: ['operaciones'] },
  { usuario: 'operaciones2', nombre: 'Olga Operaciones', clave: 'operaciones2-demo', roles: ['operaciones'] },
  { usuario: 'finanzas', nombre: 'Fernanda Finanzas', clave: 'finanzas-demo', roles: ['finanzas'] },
  { usuario: 'finanzas2', nombre: 'Felipe Finanzas', clave: 'finanzas2-demo', roles: ['finanzas'] },
  { usuario: 'auditor', nombre: 'Aurora Auditora', clave: 'auditor-demo', roles: ['auditor'] },
  { usuario: 'admin', nombre: 'Alberto Admin', clave: 'admin-demo', roles: ['admin'] },
  { usuario: 'admin2', nombre: 'Adriana Admin', clave: 'admin2-demo', roles: ['admin'] },
];

/** The second factor the sandbox provider accepts (any operator): with it the sign-in carries amr pwd+otp. */
export const DEMO_OTP = '123456';
