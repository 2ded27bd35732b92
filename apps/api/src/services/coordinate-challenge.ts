import { COORDINATE_CELLS } from '@pago/domain/coordinate-card';
import { maskRut } from '@pago/domain/rut';
import { randomInt } from 'node:crypto';
import type { Tx } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import * as members from '../repositories/member-repository';

// The coordinate card's rules for calls 5 and 6 (own-account-service.ts): which cells are asked, and when wrong
// answers block the card.

/** Consecutive wrong coordinate answers that block the card (5203017). */
export const MAX_COORDINATE_FAILURES = 3;
/** Coordinate challenges one login may be given; the next call 5 asks for the password again (440). */
export const MAX_CHALLENGES_PER_LOGIN = 3;

/**
 * One more wrong answer on the payer's coordinate card (locked here, after the transaction and its challenge): a
 * wrong value, or a challenge left unanswered. True when this one blocks the card.
 */
export async function countCoordinateFailure(tx: Tx, memberId: string, payerRut: string, requestId: string, motivo: string, idTransaccion: string): Promise<boolean> {
  const card = await members.lockCoordinateCard(tx, memberId);
  if (!card || card.blockedAt) return false;
  const failures = card.failures + 1;
  const blocked = failures >= MAX_COORDINATE_FAILURES;
  await members.setCardFailures(tx, card.id, failures, blocked);
  await appendAudit(tx, { kind: blocked ? 'coordenadas.bloqueadas' : 'coordenadas.incorrectas', rutMasked: maskRut(payerRut), requestId, detail: { idTransaccion, intentos: failures, motivo } });
  return blocked;
}

/** Distinct cells of the card, chosen with a CSPRNG. */
export function pickCells(count: number): string[] {
  const chosen: string[] = [];
  while (chosen.length < count) {
    const cell = COORDINATE_CELLS[randomInt(COORDINATE_CELLS.length)]!;
    if (!chosen.includes(cell)) chosen.push(cell);
  }
  return chosen;
}
