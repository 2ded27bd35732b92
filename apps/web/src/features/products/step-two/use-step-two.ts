import { kindOf, type Family } from '@pago/domain/families';
import { payButtonName } from '@pago/domain/parameters';
import { useEffect, useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { useNavigate } from 'react-router';
import { useAppStore, type Selection } from '../../../lib/app-store';
import { paths } from '../../../lib/paths';
import { checkAvailability, closedFamilies } from '../availability';
import { backPath, productsOfFamily } from './common';

/** What every kind of step 2 reads from the store, and how it hands the member's choice to step 3. */
export function useStepTwo(family: Family) {
  const products = useAppStore((state) => state.products);
  const parameters = useAppStore((state) => state.config.parameters);
  const setSelection = useAppStore((state) => state.setSelection);
  const navigate = useNavigate();
  const ofFamily = useMemo(() => productsOfFamily(products, family), [products, family]);
  const buttonName = payButtonName(family);

  return {
    products: ofFamily,
    parameters,
    /** Read once, for the screen's first state: what the member chose before coming back from step 3. */
    previousSelection: () => useAppStore.getState().selection,
    back: backPath(products),
    /** btnPay{family}; savings always say 'Continuar'. */
    payLabel: (buttonName && parameters[buttonName]) || (kindOf(family) === 'savings' ? 'Continuar' : 'Pagar'),
    /**
     * The pay button: the choice is kept, and step 3 opens only if the server's clock still has the family open; when
     * it has closed meanwhile, step 2 turns into the closed-hours banner (StepTwoPage) instead.
     */
    proceed: async (selection: Selection) => {
      setSelection(selection);
      const availability = await checkAvailability();
      if (closedFamilies(availability, [family]).length > 0) return;
      await navigate(paths.stepThree(family));
    },
  };
}

/**
 * The member's choices on step 2 of `family`, kept in the app state as they change, so that a reload of the screen
 * shows them again; `initial` (from the products and what went to step 3 before) when there is nothing kept.
 */
export function useStepTwoChoices<T>(family: Family, initial: () => T): [T, Dispatch<SetStateAction<T>>] {
  const setDraft = useAppStore((state) => state.setStepTwoDraft);
  const [choices, setChoices] = useState<T>(() => {
    const draft = useAppStore.getState().stepTwoDraft;
    return draft.family === family && draft.choices !== null ? (draft.choices as T) : initial();
  });
  useEffect(() => setDraft({ family, choices }), [family, choices, setDraft]);
  return [choices, setChoices];
}
