import { Screen } from '../../components/screen';

/** /pagoexpress/{category}/{product}methodpaychallenge: the coordinate challenge. */
export function MethodPayChallengePage() {
  return <Screen title="Ingresa tus coordenadas" />;
}
