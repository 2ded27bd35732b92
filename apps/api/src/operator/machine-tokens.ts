import type { DbOrTx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { insertMachineToken, type MachineTokenRow } from '../repositories/operator-repository';
import { newSecret, sha256 } from './access';
import type { Permission } from './roles';

/** A machine token's name: lower case, digits, dot, dash; 2 to 48. */
export const TOKEN_NAME = /^[a-z0-9][a-z0-9._-]{1,47}$/;

export interface TokenRequest {
  nombre: string;
  alcances: readonly Permission[];
  /** The name of the person the token acts for, and their subject (null: the CLI writing to the database). */
  by: string;
  issuerSubject: string | null;
  /** Usable at once (the CLI, the bootstrap token); otherwise only once a second person approves it. */
  approved: boolean;
}

/**
 * Writes a named, scoped token: the secret is answered this once, only its SHA-256 is kept. Null when the name is
 * taken. Used by the console's 'Tokens' (waiting for approval) and by the CLI writing to the database (the first token).
 */
export async function issueMachineToken(db: DbOrTx, request: TokenRequest, requestId?: string): Promise<{ row: MachineTokenRow; secreto: string } | null> {
  const secreto = newSecret('pot_');
  const row = await insertMachineToken(db, {
    name: request.nombre,
    tokenHash: sha256(secreto),
    scopes: [...new Set(request.alcances)],
    createdBy: request.by,
    issuerSubject: request.issuerSubject,
    approved: request.approved,
  });
  if (!row) return null;
  await appendAudit(db, {
    kind: request.approved ? 'token.emitido' : 'token.solicitado',
    ...(requestId ? { requestId } : {}),
    detail: { token: row.name, alcances: row.scopes, operador: request.by },
  });
  return { row, secreto };
}
