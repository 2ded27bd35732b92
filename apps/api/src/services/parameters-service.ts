import { isParameterName, parameterValueSchema } from '@pago/domain/parameters';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { setTimeout as sleep } from 'node:timers/promises';
import { cacheParameters, listParameters, MAX_PARAMETERS_CACHE_MS, updateParameter } from '../repositories/parameters-repository';

export type ParametersService = ReturnType<typeof createParametersService>;

export type UpdateResult =
  | { ok: true; nombre: string; valor: string; anterior: string }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'invalid'; message: string };

/**
 * Every replica serves the parameters from a cache of at most `cacheMs` (repositories/parameters-repository.ts). An
 * operator's change is answered only once that long has passed since its commit, so that once the operator has the
 * answer, the next call on every replica applies it, without a restart.
 */
export function createParametersService(db: Db, { cacheMs }: { cacheMs: number }) {
  cacheParameters(db, cacheMs);
  const waitMs = Math.min(cacheMs, MAX_PARAMETERS_CACHE_MS);
  return {
    /** Call 1's list. */
    async list(): Promise<{ nombre: string; valor: string }[]> {
      return (await listParameters(db)).map(({ nombre, valor }) => ({ nombre, valor }));
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
      // 10 ms more covers a timer firing a little early.
      if (result.ok && waitMs > 0) await sleep(waitMs + 10);
      return result;
    },
  };
}
