import { STEP_TWO_TITLES, type Family } from '@pago/domain/families';
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

// Specification §2, 'Step 2': the subtitle of each kind of product; CP has none.
const SUBTITLES: Readonly<Record<Family, string | null>> = {
  PC: CREDITS_SUBTITLE,
  HI: CREDITS_SUBTITLE,
  PM: CREDITS_SUBTITLE,
  CP: null,
  AH: SAVINGS_SUBTITLE,
  TC: CARDS_SUBTITLE,
};

function FamilyStep({ family }: { family: Family }) {
  switch (family) {
    case 'CP':
      return <CpStep />;
    case 'AH':
      return <SavingsStep />;
    case 'TC':
      return <CreditCardStep />;
    default:
      return <CreditsStep family={family} />;
  }
}

export function StepTwoPage() {
  const category = useCategory();
  const products = useAppStore((state) => state.products);
  // Reached by step 1, by address, by Back or from a tab left open: the server's clock says whether it is open now.
  const closed = closedFamilies(useAvailability().availability, [category]);
  const subtitle = SUBTITLES[category];
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
