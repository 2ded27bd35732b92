import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { recordReason } from '../../repositories/audit-repository';

/**
 * The reason an operator gives for an action that changes a member or money. A person in the console must give one
 * (the console asks for it in its confirmation); a machine token (the CLI) may. It goes into every audit line the
 * action writes.
 */
export const reasonBody = z.object({ motivo: z.string().trim().min(5, 'al menos 5 caracteres').max(300).optional() }).strict().nullish();

/** Refuses (400) a person's call without a reason, and records the reason given; true when it answered. */
export function reasonRefused(request: FastifyRequest, reply: FastifyReply, responseName: string): boolean {
  const motivo = (request.body as { motivo?: string } | undefined)?.motivo;
  if (!motivo && request.actor?.kind === 'operador') {
    void reply.code(400).send(errorEnvelope(responseName, '400', 'Indique el motivo (al menos 5 caracteres): queda en el registro de auditoría.'));
    return true;
  }
  recordReason(motivo);
  return false;
}
