import { formatRut } from '@pago/domain/rut';
import { Navigate } from 'react-router';
import { StepScreen } from '../../components/step-screen';
import { useAppStore } from '../../lib/app-store';
import { paths } from '../../lib/paths';

export function StepOnePage() {
  const rut = useAppStore((state) => state.customer.rut);
  if (!rut) return <Navigate to={paths.home} replace />;
  return (
    <StepScreen step={1} title="Selecciona el producto que deseas pagar">
      <p className="mt-2 text-muted">
        RUT <span className="font-semibold text-ink">{formatRut(rut)}</span>
      </p>
    </StepScreen>
  );
}
