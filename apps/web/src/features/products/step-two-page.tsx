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
import { StepTwoSubtitle } from './step-arrivals';
import { InactivityTimer } from '../own-account/inactivity-timer';

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
  const FamilyStep = STEPS[kindOf(category)];
  // The session ends after sessionTimeOut idle minutes (the server's parameter): the member is told so here, before
  // filling in amounts the server would then refuse.
  return (
    <InactivityTimer>
      <StepScreen step={2} title={STEP_TWO_TITLES[category]}>
        {closed.length > 0 ? (
          <ClosedFamilyStep closed={closed} back={backPath(products)} />
        ) : (
          <>
            <StepTwoSubtitle family={category} />
            {/* A new family starts from its own defaults. */}
            <FamilyStep key={category} family={category} />
          </>
        )}
      </StepScreen>
    </InactivityTimer>
  );
}
