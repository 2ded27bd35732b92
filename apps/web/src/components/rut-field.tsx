import { canonicalRut, formatRut, formatRutInput, rutFieldError } from '@pago/domain/rut';
import { useState } from 'react';
import { TextField } from './text-field';

export interface RutInput {
  /** As the member sees it, formatted while typed: '12.345.678-5'. */
  value: string;
  setValue: (value: string) => void;
  /** 'Rut inválido' (specification), or null while the field is empty or the RUT is right. */
  error: string | null;
  /** The RUT to send ('12345678-5') once it is right; null until then. */
  canonical: string | null;
}

/** The state of a RUT field, starting from a RUT in any spelling (empty for none). */
export function useRutInput(initial: () => string): RutInput {
  const [value, setValue] = useState(() => formatRut(initial()));
  const error = rutFieldError(value);
  return { value, setValue, error, canonical: error === null ? canonicalRut(value) : null };
}

interface RutFieldProps {
  rut: RutInput;
  /** 'username' where it goes with a password, so that a password manager pairs the two. */
  autoComplete: 'off' | 'username';
}

/**
 * The RUT field of the home and of the checking-account login: dots and dash added as the member types. No maxLength:
 * the browser would cut a pasted ' 12.345.678 - 5 ' before it is cleaned; formatRutInput keeps at most a RUT's length.
 */
export function RutField({ rut, autoComplete }: RutFieldProps) {
  return (
    <TextField
      label="RUT"
      name="rut"
      placeholder="12345678-9"
      inputMode="text"
      autoComplete={autoComplete}
      autoCapitalize="characters"
      autoCorrect="off"
      spellCheck={false}
      value={rut.value}
      error={rut.error}
      onChange={(event) => rut.setValue(formatRutInput(event.target.value))}
    />
  );
}
