import type { RefusalCode } from '@pago/domain/errors';

/** An expected outcome that is not a success: a code of the catalogue (or the authoriser's), never a free string. */
export interface Refusal {
  ok: false;
  codigo: RefusalCode;
}

export const refuse = (codigo: RefusalCode): Refusal => ({ ok: false, codigo });
