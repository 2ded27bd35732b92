import { Screen } from '../../components/screen';

/** /pagoexpress/webpayresult: where the card provider returns the member. */
export function WebpayResultPage() {
  return <Screen title="Procesando tu pago" />;
}
