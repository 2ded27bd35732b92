import type { DbOrTx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { insertMachineToken, type MachineTokenRow } from '../repositories/operator-repository';
import { newSecret, sha256 } from './access';
import type { Permission } from './roles';

/** A machine token's name: lower case, digits, dot, dash; 2 to 48. */
export const TOKEN_NAME = /^[a-z0-9][a-z0-9._-]{1,47}$/;

/**
 * Issues a named, scoped token: the secret is answered this once, only its SHA-256 is kept. Null when the name is
 * taken. Used by the console's 'Tokens' and by the CLI writing to the database (the first token, in production).
 */
export async function issueMachineToken(db: DbOrTx, nombre: string, alcances: readonly Permission[], by: string, requestId?: string): Promise<{ row: MachineTokenRow; secreto: string } | null> {
  const secreto = newSecret('pot_');
  const row = await insertMachineToken(db, { name: nombre, tokenHash: sha256(secreto), scopes: [...new Set(alcances)], createdBy: by });
  if (!row) return null;
  await appendAudit(db, { kind: 'token.emitido', ...(requestId ? { requestId } : {}), detail: { token: row.name, alcances: row.scopes, operador: by } });
  return { row, secreto };
}
