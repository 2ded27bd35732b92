import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { FieldError } from '../../../components/text-field';

interface AmountFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange' | 'value'> {
  label: ReactNode;
  value: string;
  onValueChange: (text: string) => void;
  /** Shown under the field while there is no error. */
  hint?: string | null;
  /** Shown under the field in red; sets aria-invalid and is announced with the field. */
  error?: string | null;
  /** Pesos get a '$' in front; a count does not. */
  currency?: boolean;
}

/** A numeric field of step 2: the amount to pay or deposit, or a number of instalments. */
export function AmountField({
  label,
  value,
  onValueChange,
  hint,
  error,
  currency = true,
  className = '',
  ...input
}: AmountFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const note = error ? { id: errorId } : hint ? { id: hintId } : null;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`.trim()}>
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <div className="relative">
        {currency ? (
          <span aria-hidden="true" className="pointer-events-none absolute top-1/2 left-4 -translate-y-1/2 text-lg text-muted">
            $
          </span>
        ) : null}
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={note?.id}
          className={`field-input tabular-nums disabled:cursor-not-allowed disabled:border-line disabled:bg-canvas disabled:text-muted ${currency ? 'pl-8' : ''}`.trim()}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          {...input}
        />
      </div>
      {error ? (
        <FieldError id={errorId}>{error}</FieldError>
      ) : hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
