import type { Family } from '@pago/domain/families';
import { ButtonLink } from '../../components/button';
import { paths } from '../../lib/paths';
import { useProviderName } from '../card/provider-name';

/** Back to step 3 with the same selection, where the card method is offered (and a credit card's warning shown). */
export function CardWayOut({ family }: { family: Family }) {
  const provider = useProviderName();
  return <ButtonLink to={paths.stepThree(family)}>{`Pagar con ${provider}`}</ButtonLink>;
}
