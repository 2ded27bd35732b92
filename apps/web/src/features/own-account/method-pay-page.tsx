import { Screen } from '../../components/screen';

/** /pagoexpress/{category}/{product}methodpay: the checking-account login. */
export function MethodPayPage() {
  return <Screen title="Paga con tu Cuenta Vista" />;
}
