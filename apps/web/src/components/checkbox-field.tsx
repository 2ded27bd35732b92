import { useId, type InputHTMLAttributes } from 'react';

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string;
}

export function CheckboxField({ label, className = '', ...input }: CheckboxFieldProps) {
  const id = useId();
  return (
    // The whole row is the touch target (44px high), not only the box.
    <div className={`flex min-h-11 items-center ${className}`.trim()}>
      <input
        id={id}
        type="checkbox"
        className="size-5 shrink-0 cursor-pointer rounded accent-brand-700"
        {...input}
      />
      <label htmlFor={id} className="flex min-h-11 cursor-pointer items-center pl-3 text-base text-ink">
        {label}
      </label>
    </div>
  );
}
