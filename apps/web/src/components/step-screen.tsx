import type { ReactNode } from 'react';
import { Screen } from './screen';
import { StepHeader, type StepNumber } from './step-header';

interface StepScreenProps {
  step: StepNumber;
  title: string;
  children?: ReactNode;
}

/** A screen of the payment steps: the three-step header, then a wide card. */
export function StepScreen({ step, title, children }: StepScreenProps) {
  return (
    <Screen title={title} width="wide" before={<StepHeader current={step} />}>
      {children}
    </Screen>
  );
}
