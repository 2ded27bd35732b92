export const STEPS = ['Tu(s) producto(s)', 'Monto a Pagar', 'Medio de Pago'] as const;

export type StepNumber = 1 | 2 | 3;

/** The three-step header of the payment screens; the current step carries aria-current="step". */
export function StepHeader({ current }: { current: StepNumber }) {
  return (
    <nav aria-label="Pasos del pago" className="mb-6">
      <ol className="grid grid-cols-3 gap-2">
        {STEPS.map((label, index) => {
          const step = index + 1;
          const state = step < current ? 'done' : step === current ? 'current' : 'todo';
          return (
            <li
              key={label}
              aria-current={state === 'current' ? 'step' : undefined}
              className={
                'relative flex flex-col items-center gap-1.5 text-center' +
                // The line from the previous step to this one, drawn behind the circles.
                (index > 0
                  ? ' before:absolute before:top-4 before:right-1/2 before:h-0.5 before:w-full before:-translate-y-1/2 ' +
                    (state === 'todo' ? 'before:bg-line' : 'before:bg-brand-700')
                  : '')
              }
            >
              <span
                aria-hidden="true"
                className={
                  'relative z-10 flex size-8 items-center justify-center rounded-full border-2 text-sm font-bold ' +
                  (state === 'current'
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : state === 'done'
                      ? 'border-brand-700 bg-brand-50 text-brand-700'
                      : 'border-line bg-white text-muted')
                }
              >
                {step}
              </span>
              <span
                className={
                  'text-xs leading-tight sm:text-sm ' + (state === 'current' ? 'font-bold text-ink' : 'text-muted')
                }
              >
                <span className="sr-only">{`Paso ${step}: `}</span>
                {label}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
