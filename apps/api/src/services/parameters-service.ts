import { isParameterName, parameterValueSchema } from '@pago/domain/parameters';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { listParameters, updateParameter } from '../repositories/parameters-repository';

export type ParametersService = ReturnType<typeof createParametersService>;

export type UpdateResult =
  | { ok: true; nombre: string; valor: string; anterior: string }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'invalid'; message: string };

/**
 * Parameters are checked against the database on every call (a digest of the table; the rows themselves are read
 * again only when it changed: repositories/parameters-repository.ts), so an operator's change takes effect on the
 * next call on every replica without a restart.
 */
export function createParametersService(db: Db) {
  return {
    async list(): Promise<{ nombre: string; valor: string }[]> {
      const rows = await listParameters(db);
      return rows.map(({ nombre, valor }) => ({ nombre, valor }));
    },

    listWithDates: () => listParameters(db),

    async update(nombre: string, valor: string, requestId: string): Promise<UpdateResult> {
      if (!isParameterName(nombre)) return { ok: false, reason: 'unknown' };
      const parsed = parameterValueSchema(nombre).safeParse(valor);
      if (!parsed.success) {
        return { ok: false, reason: 'invalid', message: parsed.error.issues[0]?.message ?? 'valor inválido' };
      }
      return db.transaction(async (tx) => {
        const result = await updateParameter(tx, nombre, valor);
        if (!result) return { ok: false as const, reason: 'unknown' as const };
        await appendAudit(tx, {
          kind: 'admin.parametro.actualizado',
          requestId,
          detail: { nombre, anterior: result.anterior, valor },
        });
        return { ok: true as const, nombre, valor, anterior: result.anterior };
      });
    },
  };
}
