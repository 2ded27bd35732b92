import { useState } from 'react';
import { ButtonLink } from '../../components/button';
import { useAppStore } from '../../lib/app-store';
import { handToHome } from '../../lib/typed-before-start';
import { paths } from '../../lib/paths';
import { paymentMethods } from '../products/payment-methods';
import { resolveSelection } from '../products/selection-request';

/**
 * Whether the card would have been offered for the selection the cuenta vista just refused (a blocked password,
 * another member's savings account), and whose RUT it was: read once on arrival, before the page clears the state.
 */
function useCardWayOut(): { rut: string; rememberMe: boolean; label: string } | null {
  const [wayOut] = useState(() => {
    const { selection, products, config, customer } = useAppStore.getState();
    const family = selection.family;
    const selected = family ? resolveSelection(selection, products, family) : null;
    if (!family || !selected || !customer.rut) return null;
    const card = paymentMethods(family, config.parameters, selected).find((method) => method.kind === 'card');
    return card ? { rut: customer.rut, rememberMe: customer.rememberMe, label: card.label } : null;
  });
  return wayOut;
}

/**
 * Another way to pay: the page clears the payment as every error page does (spec §4), so paying by card is a new
 * payment from the home, with the member's RUT already typed; the server checks every rule again.
 */
export function CardWayOut() {
  const wayOut = useCardWayOut();
  if (!wayOut) return null;
  return (
    <div className="mt-4 space-y-3">
      <p>{`También puedes pagar con tarjeta (${wayOut.label}): vuelve a elegir tus productos y, al elegir el medio de pago, elige ${wayOut.label}.`}</p>
      <ButtonLink to={paths.home} variant="secondary" onClick={() => handToHome(wayOut.rut, wayOut.rememberMe)}>
        {`Pagar con ${wayOut.label}`}
      </ButtonLink>
    </div>
  );
}
