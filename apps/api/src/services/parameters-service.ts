import { isParameterName } from '@pago/domain/parameters';
import { parameterValueSchema } from '@pago/domain/schemas/parameters';
import type { Db, DbOrTx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  cacheParameters,
  listParameters,
  MAX_PARAMETERS_CACHE_MS,
  updateParameter,
} from '../repositories/parameters-repository';

export type ParametersService = ReturnType<typeof createParametersService>;

export type UpdateResult =
  | { ok: true; nombre: string; valor: string; anterior: string }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'invalid'; message: string };

/** The name is known and the value valid for it; otherwise the refusal an update answers. */
export function checkParameter(nombre: string, valor: string): { ok: true } | Extract<UpdateResult, { ok: false }> {
  if (!isParameterName(nombre)) return { ok: false, reason: 'unknown' };
  const parsed = parameterValueSchema(nombre).safeParse(valor);
  if (!parsed.success) return { ok: false, reason: 'invalid', message: parsed.error.issues[0]?.message ?? 'valor inválido' };
  return { ok: true };
}

/** Writes a checked value and its audit line in the caller's transaction. */
export async function applyParameter(tx: DbOrTx, nombre: string, valor: string, requestId: string, who: Record<string, string>): Promise<UpdateResult> {
  const result = await updateParameter(tx, nombre, valor);
  if (!result) return { ok: false, reason: 'unknown' };
  await appendAudit(tx, { kind: 'admin.parametro.actualizado', requestId, detail: { nombre, anterior: result.anterior, valor, ...who } });
  return { ok: true, nombre, valor, anterior: result.anterior };
}

/**
 * Every replica serves the parameters from a cache of at most `cacheMs` (repositories/parameters-repository.ts). An
 * operator's change is answered only once that long has passed since its commit, so that once the operator has the
 * answer, the next call on every replica applies it, without a restart.
 */
export function createParametersService(db: Db, { cacheMs }: { cacheMs: number }) {
  cacheParameters(db, cacheMs);
  const waitMs = Math.min(cacheMs, MAX_PARAMETERS_CACHE_MS);
  /** Waits until every replica's cache has let go of what it read before a change just committed. */
  const reachReplicas = async () => {
    // 10 ms more covers a timer firing a little early.
    if (waitMs > 0) await sleep(waitMs + 10);
  };
  return {
    /** Call 1's list. */
    async list(): Promise<{ nombre: string; valor: string }[]> {
      return (await listParameters(db)).map(({ nombre, valor }) => ({ nombre, valor }));
    },

    listWithDates: () => listParameters(db),

    /** Sets a parameter at once; `who` (the operator, or the four-eyes pair) goes to the audit line. */
    async update(nombre: string, valor: string, requestId: string, who: Record<string, string> = {}): Promise<UpdateResult> {
      const checked = checkParameter(nombre, valor);
      if (!checked.ok) return checked;
      const result = await db.transaction((tx) => applyParameter(tx, nombre, valor, requestId, who));
      if (result.ok) await reachReplicas();
      return result;
    },

    reachReplicas,
  };
}
