import { z } from 'zod';
import { canonicalRut, RUT_INVALID_MESSAGE } from '../rut';

/** A RUT as any writing of it, read as its canonical form ('11111111-1'); 'Rut inválido' otherwise. */
export const rutSchema = z
  .string({ error: RUT_INVALID_MESSAGE })
  .max(64, { error: RUT_INVALID_MESSAGE })
  .transform((value, ctx) => {
    const rut = canonicalRut(value);
    if (rut === null) {
      ctx.addIssue({ code: 'custom', message: RUT_INVALID_MESSAGE, input: value });
      return z.NEVER;
    }
    return rut;
  });
