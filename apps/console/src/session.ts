import { createContext, useContext } from 'react';
import type { Permission } from '@pago/domain/operator-roles';
import type { Session } from './api';

export const SessionContext = createContext<Session | null>(null);

/** The signed-in operator (the app renders its screens only with one). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('no session');
  return session;
}

/** Whether the operator's roles allow it: the screens hide what the server would refuse anyway. */
export const can = (session: Session, permiso: Permission) => session.permisos.includes(permiso);
