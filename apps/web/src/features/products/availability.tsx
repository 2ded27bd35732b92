import type { FamilyAvailability } from '@pago/domain/business-time';
import { FAMILY_NAMES, type Family } from '@pago/domain/families';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { ButtonLink } from '../../components/button';
import { Notice } from '../../components/notice';
import { consultarDisponibilidad } from './api/disponibilidad';

export const CLOSED_HOURS_TITLE = 'Fuera del horario de pago';

// The latest answer of this tab, shared by every screen that reads it; `answers` counts them.
let latest: { availability: FamilyAvailability[] | null; answers: number } = { availability: null, answers: 0 };
const listeners = new Set<() => void>();
// One question at a time: React's StrictMode runs an effect twice, and a step and its pay button may ask together.
let inFlight: Promise<FamilyAvailability[] | null> | null = null;

/**
 * Asks the server; the answer is null when it could not be had, and the member then goes on: the server refuses a
 * closed family at every call of the payment anyway.
 */
export function checkAvailability(): Promise<FamilyAvailability[] | null> {
  inFlight ??= consultarDisponibilidad()
    .catch(() => null)
    .then((availability) => {
      latest = { availability, answers: latest.answers + 1 };
      for (const listener of listeners) listener();
      return availability;
    })
    .finally(() => (inFlight = null));
  return inFlight;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The families' availability as the server's business clock has it (never the phone's), asked each time a screen
 * using it opens; `settled` once the server has answered (or failed to) since then, so that what an earlier screen
 * was told never decides.
 */
export function useAvailability(): { availability: FamilyAvailability[] | null; settled: boolean } {
  const current = useSyncExternalStore(subscribe, () => latest);
  const [openedAt] = useState(() => latest.answers);
  useEffect(() => {
    void checkAvailability();
  }, []);
  const settled = current.answers > openedAt;
  return { availability: settled ? current.availability : null, settled };
}

/** Of the member's `families`, in their order, the ones closed now. */
export function closedFamilies(availability: readonly FamilyAvailability[] | null, families: readonly Family[]): FamilyAvailability[] {
  if (!availability) return [];
  return families.flatMap((family) => availability.filter((a) => a.tipoFamiliaProducto === family && !a.disponible));
}

const list = (names: string[]) => new Intl.ListFormat('es', { type: 'conjunction' }).format(names);

/**
 * What the banner says: the member's closed families by name, once, and when each can be paid again ('A esta hora no
 * se puede pagar Crédito Hipotecario. Podrás pagar desde las 02:00 hrs.').
 */
export function closedHoursMessage(closed: readonly FamilyAvailability[]): string {
  const names = closed.map((a) => FAMILY_NAMES[a.tipoFamiliaProducto]);
  const openings = [...new Set(closed.map((a) => a.apertura))];
  const lead = `A esta hora no se puede pagar ${list(names)}.`;
  if (openings.length === 1) return `${lead} Podrás pagar desde las ${openings[0]} hrs.`;
  const when = openings.map((opening) => {
    const group = closed.filter((a) => a.apertura === opening).map((a) => FAMILY_NAMES[a.tipoFamiliaProducto]);
    return `Podrás pagar ${list(group)} desde las ${opening} hrs.`;
  });
  return [lead, ...when].join(' ');
}

/** The one banner on closed hours: step 1's, and the one that takes the place of step 2 or 3 of a closed family. */
export function ClosedHoursNotice({ closed, className }: { closed: readonly FamilyAvailability[]; className?: string }) {
  if (closed.length === 0) return null;
  return (
    <Notice tone="warning" title={CLOSED_HOURS_TITLE} className={className}>
      <p>{closedHoursMessage(closed)}</p>
    </Notice>
  );
}

/** Step 2 or 3 of a family closed now: the banner and the way back, nothing to choose or pay. */
export function ClosedFamilyStep({ closed, back }: { closed: readonly FamilyAvailability[]; back: string }) {
  return (
    <div className="mt-6 flex flex-col gap-6 lg:max-w-2xl">
      <ClosedHoursNotice closed={closed} className="" />
      <ButtonLink to={back} variant="secondary" className="w-full sm:w-auto sm:self-start">
        Volver
      </ButtonLink>
    </div>
  );
}
