import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { parameters } from '../db/schema';
import { TIPO_PARAMETRO } from '@pago/domain/channel';

export interface ParameterRow {
  nombre: string;
  valor: string;
  updatedAt: Date;
}

export function listParameters(db: DbOrTx): Promise<ParameterRow[]> {
  return db
    .select({ nombre: parameters.nombre, valor: parameters.valor, updatedAt: parameters.updatedAt })
    .from(parameters)
    .where(eq(parameters.tipo, TIPO_PARAMETRO))
    .orderBy(asc(parameters.nombre));
}

/** Returns the previous value, or null when the parameter does not exist. */
export async function updateParameter(db: DbOrTx, nombre: string, valor: string): Promise<{ anterior: string } | null> {
  const previous = await db
    .select({ valor: parameters.valor })
    .from(parameters)
    .where(eq(parameters.nombre, nombre))
    .for('update');
  const row = previous[0];
  if (!row) return null;
  await db.update(parameters).set({ valor, updatedAt: sql`now()` }).where(eq(parameters.nombre, nombre));
  return { anterior: row.valor };
}
