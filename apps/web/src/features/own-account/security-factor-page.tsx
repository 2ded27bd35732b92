import { Screen } from '../../components/screen';

/** /pagoexpress/SecurityFactor and /pagoexpress/{category}/SecurityFactor: the second factor. */
export function SecurityFactorPage() {
  return <Screen title="Autoriza tu pago" />;
}
