import { authorisedWithName, passName } from '@pago/domain/voucher';
import { PRODUCT_SLUG } from '../../lib/env';

/**
 * 'Autorizado con' from the voucher URL's factor (specification §4): TCOO the coordinate card, Pass{product} the
 * mobile authoriser; anything else names no factor.
 */
export function authorisedWithOfQuery(factor: string | null): string | null {
  if (factor === 'TCOO') return authorisedWithName(1, PRODUCT_SLUG);
  return factor === passName(PRODUCT_SLUG) ? authorisedWithName(2, PRODUCT_SLUG) : null;
}
