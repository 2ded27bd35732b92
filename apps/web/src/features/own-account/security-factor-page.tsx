import { isFamily, type Family } from '@pago/domain/families';
import { useParams } from 'react-router';
import { Screen } from '../../components/screen';
import { paths } from '../../lib/paths';
import { FactorPanel } from './factor-panel';
import { InactivityTimer } from './inactivity-timer';
import { NoPayment } from './no-payment';
import { AccountSummary } from './payment-summary';
import { useLoggedInPayment } from './use-own-account-payment';

export const SECURITY_FACTOR_TITLE = 'Autoriza tu pago';

/**
 * /pagoexpress/{category}/SecurityFactor: a payer paying someone else's products authorises with a second factor
 * (specification §2 'Security factor screen'). /pagoexpress/SecurityFactor, without a category, belongs to no
 * payment.
 */
export function SecurityFactorPage() {
  const { category } = useParams();
  if (!isFamily(category)) {
    return (
      <NoPayment
        title={SECURITY_FACTOR_TITLE}
        message="No tienes un pago en curso. Ingresa tu RUT para comenzar."
        to={paths.home}
        action="Ir al Home"
      />
    );
  }
  return <SecurityFactor category={category} />;
}

function SecurityFactor({ category }: { category: Family }) {
  const payment = useLoggedInPayment(category);
  if (!payment) {
    return (
      <NoPayment
        title={SECURITY_FACTOR_TITLE}
        message="Para autorizar el pago primero ingresa con el RUT y la clave de internet de la Cuenta Vista."
        to={paths.methodPay(category)}
        action="Ingresar con mi clave"
      />
    );
  }
  return (
    <InactivityTimer>
      <Screen title={SECURITY_FACTOR_TITLE}>
        <AccountSummary
          amount={payment.amount}
          memberRut={payment.parties.memberRut}
          payerRut={payment.parties.payerRut}
          numeroCuenta={payment.login.account}
        />
        <FactorPanel payment={payment} />
      </Screen>
    </InactivityTimer>
  );
}
