import type { Factor } from '@pago/domain/schemas/answers';
import { AUTHORISER_FACTOR, COORDINATE_FACTOR } from '@pago/domain/call-cuenta-vista';
import type { Family } from '@pago/domain/families';
import { canonicalRut } from '@pago/domain/rut';
import { PRODUCT_SLUG } from '../../lib/env';
import { paths } from '../../lib/paths';

/** The product's name as the authoriser app and its messages spell it: 'coop' → 'Coop'. */
export const AUTHORISER_PRODUCT = PRODUCT_SLUG.charAt(0).toUpperCase() + PRODUCT_SLUG.slice(1);
/** The mobile authoriser app: 'Pass{product}' (DESIGN §4), e.g. 'PassCoop'. */
export const PASS_NAME = `Pass${AUTHORISER_PRODUCT}`;

/** The way from a factor's screen (or its failure) back to step 3's methods; the insufficient-funds page says it too. */
export const OTHER_METHOD_LABEL = 'Seleccionar otro medio de pago';

/** Specification §3 'Available factors': 2 (the mobile authoriser) is preferred when both exist; null when none. */
export function chooseFactor(available: readonly Factor[]): Factor | null {
  if (available.includes(AUTHORISER_FACTOR)) return AUTHORISER_FACTOR;
  if (available.includes(COORDINATE_FACTOR)) return COORDINATE_FACTOR;
  return null;
}

/** The factor the member may switch to, when the payer has both. */
export function otherFactor(available: readonly Factor[], selected: Factor | null): Factor | null {
  if (selected === null) return null;
  const other: Factor = selected === COORDINATE_FACTOR ? AUTHORISER_FACTOR : COORDINATE_FACTOR;
  return available.includes(other) ? other : null;
}

export const SWITCH_LABEL: Readonly<Record<Factor, string>> = {
  1: 'Usar tarjeta de coordenadas',
  2: 'Usar autorizador móvil',
};

/** The voucher's factor query parameter (specification §4): TCOO for the card, Pass{product} for the app. */
export const VOUCHER_FACTOR: Readonly<Record<Factor, string>> = { 1: 'TCOO', 2: PASS_NAME };

/** Specification §4 'Payment flow (a)': a third party authorises on the security-factor screen, the member on the challenge. */
export function isThirdParty(memberRut: string, payerRut: string): boolean {
  return canonicalRut(memberRut) !== canonicalRut(payerRut);
}

export function screenAfterLogin(category: Family, memberRut: string, payerRut: string): string {
  return isThirdParty(memberRut, payerRut) ? paths.securityFactor(category) : paths.methodPayChallenge(category);
}

/** /pagoexpress/successvoucher/{idtrx}?categoria={category}&factor={TCOO | Pass{product}}. */
export function voucherPath(idTransaccion: string, category: Family, factor: Factor): string {
  const query = new URLSearchParams({ categoria: category, factor: VOUCHER_FACTOR[factor] });
  return `${paths.successVoucher(idTransaccion)}?${query.toString()}`;
}
