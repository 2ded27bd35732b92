import { Screen } from '../../components/screen';

/** /pagoexpress/{category}/webpaymethodpay: hands the payment over to the card provider. */
export function WebpayMethodPayPage() {
  return <Screen title="Paga con tarjeta de débito o crédito" />;
}
