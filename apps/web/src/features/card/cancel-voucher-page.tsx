import { ButtonLink } from '../../components/button';
import { MessageScreen } from '../../components/message-screen';
import { paths } from '../../lib/paths';

export function CancelVoucherPage() {
  return (
    <MessageScreen
      tone="error"
      title="Pago rechazado"
      actions={
        <>
          <ButtonLink to={paths.stepOne}>Nuevo Pago</ButtonLink>
          <ButtonLink to={paths.home} variant="secondary">
            Ir al Home
          </ButtonLink>
        </>
      }
    >
      <p>Las posibles causas del rechazo son:</p>
      <ul className="list-disc space-y-1 pl-6">
        <li>Error en el ingreso de los datos de tu tarjeta.</li>
        <li>Tu tarjeta no tiene saldo suficiente.</li>
        <li>Tu tarjeta no está habilitada para pagos por internet.</li>
      </ul>
    </MessageScreen>
  );
}
