import { kindOf, STEP_TWO_TITLES, type Family, type FamilyKind } from '@pago/domain/families';
import type { ComponentType } from 'react';
import { StepScreen } from '../../components/step-screen';
import { useAppStore } from '../../lib/app-store';
import { ClosedFamilyStep, closedFamilies, useAvailability } from './availability';
import { backPath } from './step-two/common';
import { useCategory } from '../../lib/use-category';
import { CpStep } from './step-two/cp-step';
import { CreditCardStep } from './step-two/credit-card-step';
import { CreditsStep } from './step-two/credits-step';
import { SavingsStep } from './step-two/savings-step';
import { CARDS_SUBTITLE, CREDITS_SUBTITLE, SAVINGS_SUBTITLE } from './step-two/texts';

// Specification §2, 'Step 2': the subtitle of each kind of product; participation shares have none.
const SUBTITLES: Readonly<Record<FamilyKind, string | null>> = {
  credit: CREDITS_SUBTITLE,
  shares: null,
  card: CARDS_SUBTITLE,
  savings: SAVINGS_SUBTITLE,
};

/** Each kind's step 2, for any family of that kind. */
const STEPS: Readonly<Record<FamilyKind, ComponentType<{ family: Family }>>> = {
  credit: CreditsStep,
  shares: CpStep,
  card: CreditCardStep,
  savings: SavingsStep,
};

export function StepTwoPage() {
  const category = useCategory();
  const products = useAppStore((state) => state.products);
  // Reached by step 1, by address, by Back or from a tab left open: the server's clock says whether it is open now.
  const closed = closedFamilies(useAvailability().availability, [category]);
  const subtitle = SUBTITLES[kindOf(category)];
  const FamilyStep = STEPS[kindOf(category)];
  return (
    <StepScreen step={2} title={STEP_TWO_TITLES[category]}>
      {closed.length > 0 ? (
        <ClosedFamilyStep closed={closed} back={backPath(products)} />
      ) : (
        <>
          {subtitle ? <p className="mt-2 text-muted">{subtitle}</p> : null}
          {/* A new family starts from its own defaults. */}
          <FamilyStep key={category} family={category} />
        </>
      )}
    </StepScreen>
  );
}
