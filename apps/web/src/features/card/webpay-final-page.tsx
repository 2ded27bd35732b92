import { Screen } from '../../components/screen';

export function WebpayFinalPage() {
  return <Screen title="Finalizando tu pago" />;
}
