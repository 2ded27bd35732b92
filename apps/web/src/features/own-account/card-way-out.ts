import type { Family } from '@pago/domain/families';
import { useState } from 'react';
import { useAppStore } from '../../lib/app-store';
import { paymentMethods } from '../products/payment-methods';
import { resolveSelection } from '../products/selection-request';

/**
 * The family whose selection may still be paid by card when the cuenta vista refused it (a blocked password,
 * another member's savings account), read once on arrival, before anything is cleared; null when the card is not
 * offered for it (the same rule as step 3; the server checks it again when the card payment starts).
 */
export function useCardWayOut(): Family | null {
  const [family] = useState(() => {
    const { selection, products, config } = useAppStore.getState();
    const category = selection.family;
    if (!category) return null;
    const selected = resolveSelection(selection, products, category);
    if (!selected) return null;
    return paymentMethods(category, config.parameters, selected).some((method) => method.kind === 'card') ? category : null;
  });
  return family;
}
