import type { ReactNode } from 'react';
import { Button, ButtonLink } from '../../../components/button';

/** The products on the left, the summary on the right (from lg up); one column on a phone. */
export function StepTwoLayout({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start">
      <div className="flex min-w-0 flex-col gap-4">{children}</div>
      {summary}
    </div>
  );
}

interface StepTwoActionsProps {
  back: string;
  label: string;
  disabled: boolean;
  onPay: () => void;
}

/** The pay (or 'Continuar') button, then 'Volver'. */
export function StepTwoActions({ back, label, disabled, onPay }: StepTwoActionsProps) {
  return (
    <>
      <Button onClick={onPay} disabled={disabled} className="w-full">
        {label}
      </Button>
      <ButtonLink to={back} variant="secondary" className="w-full">
        Volver
      </ButtonLink>
    </>
  );
}
