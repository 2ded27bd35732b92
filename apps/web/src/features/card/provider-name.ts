import { useAppStore } from '../../lib/app-store';

export const DEFAULT_PROVIDER = 'Webpay';

/** The card provider's name as step 3 showed it (parameter medioPagoWP). */
export function useProviderName(): string {
  return useAppStore((state) => state.config.parameters['medioPagoWP']?.trim() || DEFAULT_PROVIDER);
}
