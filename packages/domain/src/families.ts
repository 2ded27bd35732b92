// No zod here: the home's bundle imports this module (wire-schemas.ts holds its schema).
export const FAMILIES = ['PC', 'CP', 'HI', 'TC', 'PM', 'AH'] as const;

export type Family = (typeof FAMILIES)[number];

/**
 * How a family is paid, which the rules read instead of naming families:
 * - credit: instalments, oldest first, hidden within the grace days, partial payment where offered; a loan in the core;
 * - shares: instalments paid as a count (participation shares), never in part;
 * - card: the latest statement, its billed or minimum amount or another;
 * - savings: a deposit of any amount, only into the member's own account.
 */
export type FamilyKind = 'credit' | 'shares' | 'card' | 'savings';

interface FamilyTraits {
  kind: FamilyKind;
  /** nombreFamiliaProducto as the product list sends it. */
  name: string;
  /** Step 2's title: it speaks of the member's cards in the plural. */
  stepTwoTitle: string;
}

/** Everything particular to a family: a seventh family is one entry here, a migration, an icon and its texts. */
export const FAMILY: Readonly<Record<Family, FamilyTraits>> = {
  PC: { kind: 'credit', name: 'Crédito de Consumo', stepTwoTitle: 'Crédito de Consumo' },
  CP: { kind: 'shares', name: 'Cuotas de Participación', stepTwoTitle: 'Cuotas de Participación' },
  HI: { kind: 'credit', name: 'Crédito Hipotecario', stepTwoTitle: 'Crédito Hipotecario' },
  TC: { kind: 'card', name: 'Tarjeta de Crédito', stepTwoTitle: 'Tarjetas de Crédito' },
  PM: { kind: 'credit', name: 'Crédito MYPE', stepTwoTitle: 'Crédito MYPE' },
  AH: { kind: 'savings', name: 'Cuenta de Ahorro', stepTwoTitle: 'Cuenta de Ahorro' },
};

export const kindOf = (family: Family): FamilyKind => FAMILY[family].kind;

const byFamily = <T>(pick: (traits: FamilyTraits) => T) => Object.fromEntries(FAMILIES.map((f) => [f, pick(FAMILY[f])])) as Record<Family, T>;

/** nombreFamiliaProducto as the product list sends it. */
export const FAMILY_NAMES: Readonly<Record<Family, string>> = byFamily((t) => t.name);

export const STEP_TWO_TITLES: Readonly<Record<Family, string>> = byFamily((t) => t.stepTwoTitle);

export function isFamily(x: unknown): x is Family {
  return typeof x === 'string' && (FAMILIES as readonly string[]).includes(x);
}
