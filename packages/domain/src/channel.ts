import { z } from 'zod';

/** canalLlamada of every call the member's browser makes. */
export const CANAL = 'PGEX';
export const CANAL_SPUB = 'SPUB';
/** tipo of the parameter query: the payment site's parameters. */
export const TIPO_PARAMETRO = 'PE';

export const canalSchema = z.enum([CANAL, CANAL_SPUB]);
export type Canal = z.infer<typeof canalSchema>;
