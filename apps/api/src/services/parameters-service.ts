import { isParameterName, parameterValueSchema } from '@pago/domain/parameters';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { setTimeout as sleep } from 'node:timers/promises';
import { leaseParameters, listParameters, updateParameter, type ParameterRow } from '../repositories/parameters-repository';

export type ParametersService = ReturnType<typeof createParametersService>;

export type UpdateResult =
  | { ok: true; nombre: string; valor: string; anterior: string }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'invalid'; message: string };

/**
 * Every replica serves the parameters under a lease of `leaseMs` (repositories/parameters-repository.ts): it checks
 * the table at most that often. An operator's change is answered only after a whole lease has passed since its
 * commit, so that once the operator has the answer, the next call on every replica applies it, without a restart.
 * Every replica must run with the same lease (PARAMETERS_LEASE_MS).
 */
export function createParametersService(db: Db, { leaseMs }: { leaseMs: number }) {
  leaseParameters(db, leaseMs);
  // Built once per set of rows the repository hands out (it keeps the same array while nothing changes).
  const answers = new WeakMap<ParameterRow[], { nombre: string; valor: string }[]>();
  return {
    async list(): Promise<{ nombre: string; valor: string }[]> {
      const rows = await listParameters(db);
      let answer = answers.get(rows);
      if (!answer) {
        answer = rows.map(({ nombre, valor }) => ({ nombre, valor }));
        answers.set(rows, answer);
      }
      return answer;
    },

    listWithDates: () => listParameters(db),

    async update(nombre: string, valor: string, requestId: string): Promise<UpdateResult> {
      if (!isParameterName(nombre)) return { ok: false, reason: 'unknown' };
      const parsed = parameterValueSchema(nombre).safeParse(valor);
      if (!parsed.success) {
        return { ok: false, reason: 'invalid', message: parsed.error.issues[0]?.message ?? 'valor inválido' };
      }
      const result = await db.transaction(async (tx) => {
        const result = await updateParameter(tx, nombre, valor);
        if (!result) return { ok: false as const, reason: 'unknown' as const };
        await appendAudit(tx, {
          kind: 'admin.parametro.actualizado',
          requestId,
          detail: { nombre, anterior: result.anterior, valor },
        });
        return { ok: true as const, nombre, valor, anterior: result.anterior };
      });
      // Monotonic clocks of two hosts can run apart by a few hundred parts per million at most; 1% and 10 ms
      // more cover that and a timer firing a little early.
      if (result.ok && leaseMs > 0) await sleep(leaseMs + Math.ceil(leaseMs / 100) + 10);
      return result;
    },
  };
}
