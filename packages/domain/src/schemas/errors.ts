import { z } from 'zod';
import { CALL_NAMES } from '../call-names';
import { detalleErrorSchema } from './answers';
import type { ErrorEntry } from '../errors';

export const callNameSchema = z.enum(CALL_NAMES);

export { detalleErrorSchema } from './answers';

/** An entry of ERROR_CATALOGUE. (Pure: the web's bundler drops it, and zod with it, where it is not used.) */
export const errorEntrySchema = /* @__PURE__ */ z.object({
  ...detalleErrorSchema.shape,
  descripcion: z.string().min(1),
  situacion: z.string().min(1),
  llamadas: z.array(callNameSchema).min(1).readonly(),
}) satisfies z.ZodType<ErrorEntry>;
