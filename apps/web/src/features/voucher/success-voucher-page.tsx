import { ButtonLink } from '../../components/button';
import { MessageScreen } from '../../components/message-screen';
import { paths } from '../../lib/paths';

/** /pagoexpress/successvoucher/{idtrx}. */
export function SuccessVoucherPage() {
  return (
    <MessageScreen
      tone="success"
      title="Pago exitoso"
      actions={
        <>
          <ButtonLink to={paths.stepOne}>Nuevo Pago</ButtonLink>
          <ButtonLink to={paths.home} variant="secondary">
            Ir al Home
          </ButtonLink>
        </>
      }
    />
  );
}
