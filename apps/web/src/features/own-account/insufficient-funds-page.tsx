import { INSUFFICIENT_FUNDS_MESSAGE } from '@pago/domain/errors';
import { isFamily } from '@pago/domain/families';
import { ButtonLink } from '../../components/button';
import { MessageScreen } from '../../components/message-screen';
import { useAppStore } from '../../lib/app-store';
import { paths } from '../../lib/paths';
import { useErrorPageReached } from '../../lib/analytics';

export const INSUFFICIENT_FUNDS_TITLE = 'Saldo insuficiente';

/**
 * /pagoexpress/InsufficientFunds: the one error page that keeps the state. Nothing was charged and the selection is
 * still good, so 'Seleccionar otro medio de pago' takes it back to step 3, which creates a new transaction for the
 * card; 'Ir al Home' clears everything.
 */
export function InsufficientFundsPage() {
  useErrorPageReached('InsufficientFunds');
  const family = useAppStore((state) => state.selection.family);
  return (
    <MessageScreen
      tone="warning"
      title={INSUFFICIENT_FUNDS_TITLE}
      actions={
        <>
          {isFamily(family) ? (
            <ButtonLink to={paths.stepThree(family)}>Seleccionar otro medio de pago</ButtonLink>
          ) : null}
          <ButtonLink to={paths.home} variant={isFamily(family) ? 'secondary' : 'primary'}>
            Ir al Home
          </ButtonLink>
        </>
      }
    >
      <p>{INSUFFICIENT_FUNDS_MESSAGE}</p>
    </MessageScreen>
  );
}
