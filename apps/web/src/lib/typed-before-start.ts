/**
 * What the member typed on the home's page before the app started (decision 037): the page takes typing from its
 * first paint. When the app draws the home anew instead of hydrating it, the field it replaces is read here first.
 */
export interface TypedBeforeStart {
  rut: string;
  rememberMe: boolean;
}

let typed: TypedBeforeStart | null = null;

/** Reads the home form's fields from the markup the page arrived with, before the app replaces it. */
export function keepTypedBeforeStart(container: HTMLElement): void {
  const rut = container.querySelector<HTMLInputElement>('input[name="rut"]');
  const rememberMe = container.querySelector<HTMLInputElement>('input[name="rememberMe"]');
  if (rut && rut.value !== '') typed = { rut: rut.value, rememberMe: rememberMe?.checked ?? false };
}

/** A refusal page hands the member's RUT to the home for a new payment (decision 051): the home takes it as typed. */
export function handToHome(rut: string, rememberMe: boolean): void {
  typed = { rut, rememberMe };
}

/** Once: what was typed before the app started, if the app drew the home anew over it. */
export function takeTypedBeforeStart(): TypedBeforeStart | null {
  const kept = typed;
  typed = null;
  return kept;
}
