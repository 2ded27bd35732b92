import { BLOCKED_PASSWORD_MESSAGE } from '@pago/domain/errors';
import { ButtonLink } from '../../components/button';
import { MessageScreen } from '../../components/message-screen';
import { PRODUCT_PASSWORD_RECOVERY_URL } from '../../lib/env';
import { paths } from '../../lib/paths';
import { useErrorPageReached } from '../../lib/analytics';
import { useResetOnEnter } from '../errors/use-reset-on-enter';
import { CardWayOut } from './card-way-out';

export const BLOCKED_TITLE = 'Tu clave ha sido bloqueada';

/** /pagoexpress/bloquedUser. Like the other error pages it clears the app state (specification §4). */
export function BlockedUserPage() {
  useErrorPageReached('bloquedUser');
  useResetOnEnter();
  return (
    <MessageScreen
      tone="error"
      title={BLOCKED_TITLE}
      actions={
        <>
          <a href={PRODUCT_PASSWORD_RECOVERY_URL} className="btn btn-primary">
            Recuperar clave
          </a>
          <ButtonLink to={paths.home} variant="secondary">
            Ir al Home
          </ButtonLink>
        </>
      }
    >
      <p>{BLOCKED_PASSWORD_MESSAGE}</p>
      <p>{'Para volver a pagar con tu Cuenta Vista, recupera tu clave de internet en nuestro sitio.'}</p>
      <CardWayOut />
    </MessageScreen>
  );
}
