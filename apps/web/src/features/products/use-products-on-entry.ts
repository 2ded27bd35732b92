import { NO_PRODUCTS_MESSAGE } from '@pago/domain/errors';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAppStore } from '../../lib/app-store';
import { routeError } from '../../lib/error-routing';
import { paths } from '../../lib/paths';
import { useFollowOutcome } from '../../lib/use-follow-outcome';
import { loadProducts } from './api/listar-productos';
import { visibleProducts } from './product-families';

/**
 * Specification §4 'Step 1': on entry without a session, an invisible captcha runs and its token lists the
 * member's products. Success keeps the session and the products of the families switched on; everything else
 * leaves step 1 as §8 'Product list' says.
 */
export function useProductsOnEntry(rut: string, token: string): void {
  const navigate = useNavigate();
  const followOutcome = useFollowOutcome();
  const setSession = useAppStore((state) => state.setSession);

  useEffect(() => {
    if (!rut || token) return;
    let active = true;
    loadProducts(rut).then(
      (answer) => {
        if (!active) return;
        if (answer.kind === 'error') {
          followOutcome(routeError('listarProductos', answer.error));
          return;
        }
        const products = visibleProducts(answer.products, useAppStore.getState().config.parameters);
        if (products.length === 0) {
          followOutcome({ kind: 'customError', message: NO_PRODUCTS_MESSAGE });
          return;
        }
        setSession({ token: answer.token, products });
      },
      () => {
        // Specification §4: a failed call (network, captcha, an answer without an envelope) goes to the error page.
        if (active) void navigate(paths.error);
      },
    );
    return () => {
      active = false;
    };
  }, [rut, token, navigate, followOutcome, setSession]);
}
