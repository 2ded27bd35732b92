import { FAMILIES, type Family } from './family-codes';

export { FAMILIES, isFamily, type Family } from './family-codes';

/**
 * How a family is paid, which the rules read instead of naming families:
 * - credit: instalments, oldest first, hidden within the grace days, partial payment where offered; a loan in the core;
 * - shares: instalments paid as a count (participation shares), never in part;
 * - card: the latest statement, its billed or minimum amount or another; never paid with a credit card;
 * - savings: a deposit of any amount, only into the member's own account; no instalments, no pay-button text.
 */
export const FAMILY_KINDS = ['credit', 'shares', 'card', 'savings'] as const;
export type FamilyKind = (typeof FAMILY_KINDS)[number];

/** 'HH:MM' on the cooperative's clock (America/Santiago). */
export type ClockTime = `${number}${number}:${number}${number}`;

interface FamilyTraits {
  kind: FamilyKind;
  /** nombreFamiliaProducto as the product list sends it. */
  name: string;
  /** Step 2's title when it is not the name: the cards' speaks of the member's cards in the plural. */
  stepTwoTitle?: string;
  /** Spec §3 'Voucher payment': the descripcionProducto its payments carry. */
  voucherDescription: string;
  /** Spec §9: payments close at this time each day and open again at 02:00. */
  closesAt: ClockTime;
}

/**
 * Everything particular to a family: a seventh family is its code in FAMILIES (family-codes.ts), one entry here, a
 * migration (the products' family CHECK), an icon (apps/web family-icon.tsx) and its texts. Its parameters (the
 * switch, diasMora…, pagoWebPay…, btnPay…) follow from FAMILIES and its kind (parameters.ts); the rules read its kind.
 */
export const FAMILY = {
  PC: { kind: 'credit', name: 'Crédito de Consumo', voucherDescription: 'CREDITO DE CONSUMO', closesAt: '22:30' },
  CP: { kind: 'shares', name: 'Cuotas de Participación', voucherDescription: 'CUOTAS DE PARTICIPACIÓN', closesAt: '22:30' },
  HI: { kind: 'credit', name: 'Crédito Hipotecario', voucherDescription: 'CREDITO HIPOTECARIO', closesAt: '20:00' },
  TC: { kind: 'card', name: 'Tarjeta de Crédito', stepTwoTitle: 'Tarjetas de Crédito', voucherDescription: 'TARJETA DE CREDITO', closesAt: '22:30' },
  PM: { kind: 'credit', name: 'Crédito MYPE', voucherDescription: 'CREDITO MYPE', closesAt: '22:30' },
  AH: { kind: 'savings', name: 'Cuenta de Ahorro', voucherDescription: 'CUENTAS DE AHORRO', closesAt: '22:30' },
} as const satisfies Readonly<Record<Family, FamilyTraits>>;

/** The families of one kind, as a type: what the table says, so a new entry changes it without another edit. */
export type FamilyOfKind<K extends FamilyKind> = { [F in Family]: (typeof FAMILY)[F]['kind'] extends K ? F : never }[Family];

export const kindOf = (family: Family): FamilyKind => FAMILY[family].kind;

export const isOfKind = <K extends FamilyKind>(family: Family, kind: K): family is FamilyOfKind<K> => kindOf(family) === kind;

const byFamily = <T>(pick: (traits: FamilyTraits) => T) => Object.fromEntries(FAMILIES.map((f) => [f, pick(FAMILY[f])])) as Record<Family, T>;

/** nombreFamiliaProducto as the product list sends it. */
export const FAMILY_NAMES: Readonly<Record<Family, string>> = /* @__PURE__ */ byFamily((t) => t.name);

/** Spec §3 'Voucher payment': descripcionProducto of each family's payments. */
export const VOUCHER_DESCRIPTIONS: Readonly<Record<Family, string>> = /* @__PURE__ */ byFamily((t) => t.voucherDescription);

export const STEP_TWO_TITLES: Readonly<Record<Family, string>> = /* @__PURE__ */ byFamily((t) => t.stepTwoTitle ?? t.name);
