import { STEP_TWO_TITLES, type Family } from '@pago/domain/families';
import { StepScreen } from '../../components/step-screen';
import { useCategory } from '../../lib/use-category';

// Specification §2, 'Step 2': the subtitle of each kind of product; CP has none.
const SUBTITLES: Readonly<Record<Family, string | null>> = {
  PC: 'Selecciona las cuotas a pagar de cada producto',
  HI: 'Selecciona las cuotas a pagar de cada producto',
  PM: 'Selecciona las cuotas a pagar de cada producto',
  CP: null,
  AH: 'Selecciona la cuenta y el monto que quieres depositar',
  TC: 'Selecciona una opción de pago de tus monto(s) facturados',
};

export function StepTwoPage() {
  const category = useCategory();
  const subtitle = SUBTITLES[category];
  return (
    <StepScreen step={2} title={STEP_TWO_TITLES[category]}>
      {subtitle ? <p className="mt-2 text-muted">{subtitle}</p> : null}
    </StepScreen>
  );
}
