import type { ErrorCode, RefusalCode } from '@pago/domain/errors';

/**
 * An expected outcome that is not a success: a code of the catalogue, or for the mobile authoriser's calls one of
 * its own codes too. Never a free string.
 */
export interface Refusal<C extends RefusalCode = ErrorCode> {
  ok: false;
  codigo: C;
}

export const refuse = <C extends RefusalCode>(codigo: C): Refusal<C> => ({ ok: false, codigo });
