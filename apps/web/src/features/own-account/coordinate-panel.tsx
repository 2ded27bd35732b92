import type { Family } from '@pago/domain/families';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Countdown } from '../../components/countdown';
import { Loader } from '../../components/loader';
import type { Parties } from './api/cuenta-vista';
import { PanelFailure } from './panel-failure';
import { useCoordinateChallenge } from './use-coordinate-challenge';

export const COORDINATES_HEADING = 'Tarjeta de coordenadas';
export const COORDINATE_LENGTH = 2;

/** Specification §5: each coordinate is exactly two characters; the card's are digits. */
export function isCompleteCoordinate(value: string): boolean {
  return /^\d{2}$/.test(value);
}

interface CoordinatePanelProps {
  parties: Parties;
  numeroCuenta: string;
  category: Family;
}

/** The coordinate-card panel of the SecurityFactor and challenge screens. */
export function CoordinatePanel({ parties, numeroCuenta, category }: CoordinatePanelProps) {
  const headingId = useId();
  const { state, secondsLeft, attempt, submit, retry } = useCoordinateChallenge(parties, numeroCuenta, category);

  return (
    <section aria-labelledby={headingId} className="mt-6">
      <h2 id={headingId} className="text-lg font-semibold text-ink">
        {COORDINATES_HEADING}
      </h2>
      {state.kind === 'requesting' ? <Loader label="Solicitando coordenadas…" /> : null}
      {state.kind === 'answering' ? (
        // A new set of cells starts with empty fields.
        <CoordinateForm
          key={attempt}
          cells={state.cells}
          paying={state.paying}
          secondsLeft={secondsLeft}
          onSubmit={submit}
        />
      ) : null}
      {state.kind === 'failed' ? (
        <PanelFailure message={state.message} retryable={state.retryable} onRetry={retry} />
      ) : null}
    </section>
  );
}

interface CoordinateFormProps {
  cells: string[];
  paying: boolean;
  secondsLeft: number | null;
  onSubmit: (values: readonly string[]) => void;
}

function CoordinateForm({ cells, paying, secondsLeft, onSubmit }: CoordinateFormProps) {
  const baseId = useId();
  const [values, setValues] = useState<string[]>(() => cells.map(() => ''));
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const complete = values.length === cells.length && values.every(isCompleteCoordinate);

  function change(index: number, raw: string) {
    const value = raw.replace(/\D/g, '').slice(0, COORDINATE_LENGTH);
    setValues((current) => current.map((v, i) => (i === index ? value : v)));
    // Two digits typed: on to the next cell, as on the card.
    if (value.length === COORDINATE_LENGTH) inputs.current[index + 1]?.focus();
  }

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (complete && !paying) onSubmit(values);
  }

  return (
    <form noValidate onSubmit={send} className="mt-2" aria-busy={paying}>
      <p id={`${baseId}-help`} className="text-sm text-muted sm:text-base">
        Ingresa los valores de tu tarjeta de coordenadas para estas posiciones.
      </p>
      <div className="mt-4 grid grid-cols-3 gap-3">
        {cells.map((cell, index) => {
          const id = `${baseId}-${index}`;
          return (
            <div key={cell} className="flex min-w-0 flex-col items-center gap-1.5">
              <label htmlFor={id} className="text-2xl font-bold text-brand-700">
                <span className="sr-only">Coordenada </span>
                {cell}
              </label>
              <input
                id={id}
                ref={(element) => {
                  inputs.current[index] = element;
                }}
                name={`coordenada-${index + 1}`}
                value={values[index] ?? ''}
                onChange={(event) => change(index, event.target.value)}
                inputMode="numeric"
                pattern="[0-9]*"
                maxLength={COORDINATE_LENGTH}
                autoComplete="off"
                autoCorrect="off"
                spellCheck={false}
                aria-describedby={`${baseId}-help`}
                disabled={paying}
                className="field-input w-full max-w-24 text-center text-2xl font-semibold tabular-nums"
              />
            </div>
          );
        })}
      </div>
      {secondsLeft !== null ? (
        <div className="mt-5">
          <Countdown seconds={secondsLeft} />
        </div>
      ) : null}
      <Button type="submit" disabled={!complete || paying} className="mt-5 w-full">
        Autorizar
      </Button>
      {paying ? <Loader overlay label="Procesando tu pago…" /> : null}
    </form>
  );
}
