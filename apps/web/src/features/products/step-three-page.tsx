import { StepScreen } from '../../components/step-screen';

export function StepThreePage() {
  return <StepScreen step={3} title="Selecciona tu medio de pago" />;
}
