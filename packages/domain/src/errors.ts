import { z } from 'zod';
import { CALL_NAMES } from './call-names';
import type { DetalleError, ErrorEntry } from './errors-plain';

export * from './errors-plain';

export const callNameSchema = z.enum(CALL_NAMES);

/** The wire form of DetalleError (DESIGN §3). */
export const detalleErrorSchema = z
  .object({ codigo: z.string().min(1), descripcion: z.string() }) satisfies z.ZodType<DetalleError>;

/** An entry of ERROR_CATALOGUE. (Pure: the web's bundler drops it, and zod with it, where it is not used.) */
export const errorEntrySchema = /* @__PURE__ */ detalleErrorSchema.extend({
  descripcion: z.string().min(1),
  situacion: z.string().min(1),
  llamadas: z.array(callNameSchema).min(1).readonly(),
}) satisfies z.ZodType<ErrorEntry>;
