import { kindOf, STEP_TWO_TITLES, type Family, type FamilyKind } from '@pago/domain/families';
import { Loader } from '../../components/loader';
import { StepScreen } from '../../components/step-screen';
import { CARDS_SUBTITLE, CREDITS_SUBTITLE, SAVINGS_SUBTITLE } from './step-two/texts';

/*
 * What the payment steps show before their code and the member's data have arrived: the step, its heading and its
 * subtitle, the words that do not depend on the session (app/arrivals.tsx draws them into each step's page).
 */

export const STEP_ONE_TITLE = 'Selecciona el producto que deseas pagar';
export const LOADING_PRODUCTS = 'Cargando tus productos…';
export const STEP_THREE_TITLE = 'Selecciona tu medio de pago';

// Specification §2, 'Step 2': the subtitle of each kind of product; participation shares have none.
const SUBTITLES: Readonly<Record<FamilyKind, string | null>> = {
  credit: CREDITS_SUBTITLE,
  shares: null,
  card: CARDS_SUBTITLE,
  savings: SAVINGS_SUBTITLE,
};

/** Step 2's subtitle for a family, under its title. */
export function StepTwoSubtitle({ family }: { family: Family }) {
  const subtitle = SUBTITLES[kindOf(family)];
  return subtitle ? <p className="mt-2 text-muted">{subtitle}</p> : null;
}

export function StepOneArrival() {
  return (
    <StepScreen step={1} title={STEP_ONE_TITLE}>
      <Loader label={LOADING_PRODUCTS} />
    </StepScreen>
  );
}

export function StepTwoArrival({ family }: { family: Family }) {
  return (
    <StepScreen step={2} title={STEP_TWO_TITLES[family]}>
      <StepTwoSubtitle family={family} />
      <Loader />
    </StepScreen>
  );
}

export function StepThreeArrival() {
  return (
    <StepScreen step={3} title={STEP_THREE_TITLE}>
      <Loader />
    </StepScreen>
  );
}
