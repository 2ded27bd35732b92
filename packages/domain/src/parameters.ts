import { FAMILIES, isOfKind, type Family, type FamilyOfKind } from './families';

// The parameters (spec §7.1): their names, derived from the family table, and how the screens read them. The checks
// of a value, which only the administration needs, are in schemas/parameters.ts.

/** One parameter name per family, `${prefix}${family}`: a new family in FAMILIES makes the compiler ask for each. */
const perFamily = <P extends string, F extends Family>(prefix: P, families: readonly F[]) =>
  families.map((f) => `${prefix}${f}` as const) as readonly `${P}${F}`[];

const SWITCH_NAMES = ['CierreDiario', 'Mantencion', ...FAMILIES] as const;
// Spec §7.1 says "diasMora{PC,PM,TC,CP,HI (AH uses a key named AH)}", but 'AH' is already the savings switch;
// one name cannot hold both a switch and a number of days, so every family's grace key is diasMora{family}.
export const GRACE_DAYS_NAMES = perFamily('diasMora', FAMILIES);
const WEBPAY_SWITCH_NAMES = perFamily('pagoWebPay', FAMILIES);
export const COMMERCE_CODE_NAMES = ['pagoWPDebitoCredito', 'pagoWPDebito'] as const;
// No btnPay for savings: its step's button is always 'Continuar'.
type FamilyWithPayButton = Exclude<Family, FamilyOfKind<'savings'>>;
const hasPayButton = (family: Family): family is FamilyWithPayButton => !isOfKind(family, 'savings');
const PAY_BUTTON_NAMES = perFamily('btnPay', FAMILIES.filter(hasPayButton));
const DEBIT_CREDIT_SWITCH_NAMES = perFamily('pagoDebitoCredito', FAMILIES);
export const TEXT_NAMES = ['medioPagoWP', ...PAY_BUTTON_NAMES, 'cancelTrxMsg'] as const;
/** Pesos a savings account may receive by card in 24 hours: a card cannot tell whose account it pays into. */
export const CARD_DEPOSIT_CEILING_NAME = 'topeDepositoWebPayAH';

export const PARAMETER_NAMES = [
  'sessionTimeOut',
  ...SWITCH_NAMES,
  ...GRACE_DAYS_NAMES,
  ...WEBPAY_SWITCH_NAMES,
  ...COMMERCE_CODE_NAMES,
  'medioPagoWP',
  ...PAY_BUTTON_NAMES,
  ...DEBIT_CREDIT_SWITCH_NAMES,
  'cancelTrxMsg',
  CARD_DEPOSIT_CEILING_NAME,
] as const;

export type ParameterName = (typeof PARAMETER_NAMES)[number];

export type ParameterMap = Record<ParameterName, string>;

export function isParameterName(x: unknown): x is ParameterName {
  return typeof x === 'string' && (PARAMETER_NAMES as readonly string[]).includes(x);
}

/** For parameters.ts's checks of a value by its name's kind. */
export function hasName<T extends string>(names: readonly T[], nombre: string): nombre is T {
  return (names as readonly string[]).includes(nombre);
}

/** Unknown names are dropped; for a repeated name the last value wins. Values are not validated here. */
export function toParameterMap(list: readonly { nombre: string; valor: string }[]): Partial<ParameterMap> {
  const map: Partial<ParameterMap> = {};
  for (const { nombre, valor } of list) {
    if (isParameterName(nombre)) map[nombre] = valor;
  }
  return map;
}

export function isSwitchOn(value: string | undefined): boolean {
  return value === '1';
}

export function familySwitchName(family: Family): ParameterName {
  return family;
}

export function graceDaysName(family: Family): ParameterName {
  return `diasMora${family}`;
}

export function webPaySwitchName(family: Family): ParameterName {
  return `pagoWebPay${family}`;
}

export function debitCreditSwitchName(family: Family): ParameterName {
  return `pagoDebitoCredito${family}`;
}

/** null for savings, which has no configurable pay button. */
export function payButtonName(family: Family): ParameterName | null {
  return hasPayButton(family) ? `btnPay${family}` : null;
}
