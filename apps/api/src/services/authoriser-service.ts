import type { Db } from '../db/client';
import { decidePush, pendingPushesOf } from '../repositories/authorization-repository';

export interface PendingPush {
  id: string;
  monto: number;
  expiraEn: number;
}

export type AuthoriserService = ReturnType<typeof createAuthoriserService>;

/**
 * The mobile authoriser's side of factor 2: the payer's phone sees the pending pushes of its RUT and approves or
 * rejects one. In the sandbox the phone is the /sandbox/authorizer page.
 */
export function createAuthoriserService(db: Db) {
  return {
    async pending(rut: string): Promise<PendingPush[]> {
      const rows = await pendingPushesOf(db, rut);
      return rows.map((r) => ({ id: r.id, monto: r.amount, expiraEn: r.secondsLeft }));
    },

    /** Approves or rejects a pending, unexpired push of this RUT; false when there is none. */
    decide(rut: string, id: string, approve: boolean): Promise<boolean> {
      return decidePush(db, rut, id, approve);
    },
  };
}
