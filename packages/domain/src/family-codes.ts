// The product families' codes (tipoFamiliaProducto), in the specification's order (§1). What each family is and how
// it is paid is in families.ts; routes check a code with isFamily without loading that table. No zod here:
// schemas/wire.ts holds the codes' schema.
export const FAMILIES = ['PC', 'CP', 'HI', 'TC', 'PM', 'AH'] as const;

export type Family = (typeof FAMILIES)[number];

export function isFamily(x: unknown): x is Family {
  return typeof x === 'string' && (FAMILIES as readonly string[]).includes(x);
}
