// No zod here: the home's bundle imports this module (schemas/wire.ts holds its schema).
/** canalLlamada of every call the member's browser makes. */
export const CANAL = 'PGEX';
export const CANAL_SPUB = 'SPUB';
/** tipo of the parameter query: the payment site's parameters. */
export const TIPO_PARAMETRO = 'PE';
export type Canal = typeof CANAL | typeof CANAL_SPUB;
