// No zod here: the home's bundle imports this module (wire-schemas.ts holds its schema).
export const FAMILIES = ['PC', 'CP', 'HI', 'TC', 'PM', 'AH'] as const;

export type Family = (typeof FAMILIES)[number];

/** nombreFamiliaProducto as the product list sends it. */
export const FAMILY_NAMES: Readonly<Record<Family, string>> = {
  PC: 'Crédito de Consumo',
  CP: 'Cuotas de Participación',
  HI: 'Crédito Hipotecario',
  TC: 'Tarjeta de Crédito',
  PM: 'Crédito MYPE',
  AH: 'Cuenta de Ahorro',
};

// Step 2 speaks of the member's cards in the plural, unlike the family's own name.
export const STEP_TWO_TITLES: Readonly<Record<Family, string>> = {
  PC: 'Crédito de Consumo',
  CP: 'Cuotas de Participación',
  HI: 'Crédito Hipotecario',
  TC: 'Tarjetas de Crédito',
  PM: 'Crédito MYPE',
  AH: 'Cuenta de Ahorro',
};

export function isFamily(x: unknown): x is Family {
  return typeof x === 'string' && (FAMILIES as readonly string[]).includes(x);
}
