import { AUTHORISER_FACTOR, COORDINATE_FACTOR } from '@pago/domain/call-cuenta-vista';
import { Screen } from '../../components/screen';
import { paths } from '../../lib/paths';
import { useCategory } from '../../lib/use-category';
import { FactorPanel } from './factor-panel';
import { InactivityTimer } from './inactivity-timer';
import { NoPayment } from './no-payment';
import { OwnPaymentSummary } from './payment-summary';
import { useLoggedInPayment } from './use-own-account-payment';

export const CHALLENGE_TITLES = {
  [COORDINATE_FACTOR]: 'Ingresa tus coordenadas',
  [AUTHORISER_FACTOR]: 'Autoriza tu pago',
} as const;

/**
 * /pagoexpress/{category}/{product}methodpaychallenge: the member authorises their own payment with the factor in
 * use, under the inactivity timer (specification §2).
 */
export function MethodPayChallengePage() {
  const category = useCategory();
  const payment = useLoggedInPayment(category);
  if (!payment) {
    return (
      <NoPayment
        title={CHALLENGE_TITLES[COORDINATE_FACTOR]}
        message="Para autorizar el pago primero ingresa con tu RUT y tu clave de internet."
        to={paths.methodPay(category)}
        action="Ingresar con mi clave"
      />
    );
  }
  const title = CHALLENGE_TITLES[payment.selectedFactor ?? AUTHORISER_FACTOR];
  return (
    <InactivityTimer>
      <Screen title={title}>
        <OwnPaymentSummary amount={payment.amount} numeroCuenta={payment.login.account} />
        <FactorPanel payment={payment} />
      </Screen>
    </InactivityTimer>
  );
}
